# Plots for bench/accuracy2d.c (seed 002 figs 3.1, 3.4-3.6): targets hit and
# misjudgements per rotation speed. Variables: outdir (CSV), imgdir (PNG).
if (!exists("outdir")) outdir = "build/bench"
if (!exists("imgdir")) imgdir = "docs/img"
set datafile separator ","
set key autotitle columnhead
set grid
set xrange [0:180]
set xtics 30
set xlabel "rotation per frame (degrees)"
set style data lines
f = outdir."/accuracy2d.csv"

set terminal pngcairo size 900,520 font "sans,11"
set output imgdir."/accuracy2d_hits.png"
set title "2D: targets hit per rotation speed (of 10,000; fig 3.1)"
set ylabel "targets hit"
set key left top
plot f using 1:5 title "ours, 1 band" lc rgb "#7fbf7b" lw 2, \
     f using 1:7 title "ours, 4 bands" lc rgb "#1b7837" lw 2 dt 2, \
     f using 1:2 title "rotating R (exact)" lc rgb "black" lw 3, \
     f using 1:3 title "thesis sector" lc rgb "#2166ac" lw 2, \
     f using 1:4 title "S-CCD" lc rgb "#b2182b" lw 2

set terminal pngcairo size 900,900 font "sans,11"
set output imgdir."/accuracy2d_wrong.png"
unset title
set multiplot layout 3,1 title "2D misjudgements per rotation speed (figs 3.4-3.6), exact sweep as truth"
set key left top
set ylabel "over-detections"
set xlabel ""
plot f using 1:17 title "ours, 1 band" lc rgb "#7fbf7b" lw 2, \
     f using 1:25 title "ours, 4 bands" lc rgb "#1b7837" lw 2 dt 2, \
     f using 1:9 title "thesis sector" lc rgb "#2166ac" lw 2, \
     f using 1:13 title "S-CCD" lc rgb "#b2182b" lw 2
set ylabel "under-detections (misses)"
plot f using 1:18 title "ours, 1 band" lc rgb "#7fbf7b" lw 2, \
     f using 1:26 title "ours, 4 bands" lc rgb "#1b7837" lw 2 dt 2, \
     f using 1:10 title "thesis sector" lc rgb "#2166ac" lw 2, \
     f using 1:14 title "S-CCD" lc rgb "#b2182b" lw 2
set ylabel "misjudgements (over + under)"
set xlabel "rotation per frame (degrees)"
plot f using 1:19 title "ours, 1 band" lc rgb "#7fbf7b" lw 2, \
     f using 1:27 title "ours, 4 bands" lc rgb "#1b7837" lw 2 dt 2, \
     f using 1:11 title "thesis sector" lc rgb "#2166ac" lw 2, \
     f using 1:15 title "S-CCD" lc rgb "#b2182b" lw 2
unset multiplot
