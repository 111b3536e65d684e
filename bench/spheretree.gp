# Sphere-tree plots: spheres against resolution for the seed's fill and the
# greedy fill (log scales), node volume per tree level for both bounds, and
# the bounding trees' leaves against their outward error,
# from the tables bench/spheretree.c writes; copies the pictures of the
# fills it draws (spheretree_fill_*.png). Variables: outdir, imgdir.
if (!exists("outdir")) outdir = "build/bench"
if (!exists("imgdir")) imgdir = "docs/img"
system("cp ".outdir."/spheretree_fill_seed.png ".outdir."/spheretree_fill_greedy.png ".imgdir."/")
set terminal pngcairo size 1000,650 noenhanced
set key left top inside font ",9" box opaque
set grid

set output imgdir."/spheretree_counts.png"
set title "Spheres filling each mesh (solid: seed 003 fill, dashed: greedy fill)"
set logscale xy
set xlabel "cells along the longest side"
set ylabel "spheres"
set xtics (32, 64, 128, 256)
n = words(system("head -1 ".outdir."/spheretree_counts.dat"))
plot for [i=2:n:2] outdir."/spheretree_counts.dat" using 1:i with linespoints lw 2 lc (i/2) title columnhead, \
     for [i=3:n:2] outdir."/spheretree_counts.dat" using 1:i with linespoints lw 2 dashtype 2 lc ((i-1)/2) title columnhead

set output imgdir."/spheretree_levels.png"
set title "Node sphere volume per tree level (bottle): seed 003 bounds against tight bounds"
unset logscale x
set logscale y
set xtics autofreq
set xlabel "level (root = 0)"
set ylabel "total node sphere volume"
plot for [i=2:5] outdir."/spheretree_levels.dat" using 1:i with linespoints lw 2 title columnhead

set output imgdir."/spheretree_outer.png"
set title "Bounding trees: leaves against worst outward error (sampled), per mesh; Bradshaw's bunny for reference"
set logscale xy
set xtics autofreq
set xlabel "leaves (budget 8, 64, 512)"
set ylabel "worst outward error, % of the box diagonal"
set label 1 "Bradshaw octree (188, 20.6 %)" at 188,20.6 offset 1,0 font ",9"
set label 2 "Bradshaw medial axis (493, 1.4 %)" at 493,1.4 right offset -1,-0.6 font ",9"
set object 1 circle at 188,20.6 size screen 0.005 fc rgb "black" fs solid
set object 2 circle at 493,1.4 size screen 0.005 fc rgb "black" fs solid
nb = system("grep -c '^\"' ".outdir."/spheretree_outer.dat")
plot for [i=0:nb-1] outdir."/spheretree_outer.dat" index i using 1:2 with linespoints lw 2 title columnheader(1)
