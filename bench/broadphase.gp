# Broadphase plots: time and pair tests against n (log scales), from the wide
# tables bench/broadphase.c writes (one column per method, NaN = not run).
# Variables: outdir (tables), imgdir (PNGs).
if (!exists("outdir")) outdir = "build/bench"
if (!exists("imgdir")) imgdir = "docs/img"
set terminal pngcairo size 1000,650 noenhanced
set datafile missing "NaN"
set logscale xy
set key left top inside font ",9" box opaque
set grid
set xlabel "n"

set output imgdir."/broadphase_time.png"
set title "Seed scene (001 §4.2): ms per frame"
set ylabel "ms per frame (median)"
plot for [i=2:12] outdir."/broadphase_3d_time.dat" using 1:i with linespoints title columnhead

set output imgdir."/broadphase_tests.png"
set title "Seed scene: pair tests per frame (the seed's 判定回数), and box pairs reported"
set ylabel "per frame"
plot for [i=2:7] outdir."/broadphase_3d_tests.dat" using 1:i with linespoints title columnhead

set output imgdir."/broadphase_2d.png"
set title "2D circles: index alone and whole cpSpaceStep, ms per frame"
set ylabel "ms per frame (median)"
plot for [i=2:6] outdir."/broadphase_2d.dat" using 1:i with linespoints title columnhead, \
     for [i=7:10] outdir."/broadphase_2d.dat" using 1:i with linespoints dashtype 2 title columnhead
