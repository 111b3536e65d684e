# Sphere-tree plots: spheres against resolution for the seed's fill and the
# greedy fill (log scales), and node volume per tree level for both bounds,
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
