# Plots for bench/speed.c (seed 000 tables 3.2-3.6): cost of each pair test as
# a ratio to AABB-AABB (ours measured, the thesis' C# beside it), and the CCD
# cost against 100,000 spheres. Variables: outdir (CSV), imgdir (PNG).
if (!exists("outdir")) outdir = "build/bench"
if (!exists("imgdir")) imgdir = "docs/img"
set datafile separator ","
set datafile missing "NaN"
set termoption noenhanced
set terminal pngcairo noenhanced size 1000,900 font "sans,10"
set output imgdir."/speed_ratios.png"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set yrange [0.1:*]
set grid ytics
set ylabel "time / AABB–AABB time (log)"
set xtics rotate by -35 left
set key left top
pos(x) = x > 0 ? x : NaN
set multiplot layout 2,1 title "Cost of one test relative to AABB–AABB (same dimension, same run)"
set title "2D (thesis table 3.2)"
plot outdir."/speed2d.csv" every ::1 using 4:xticlabels(2) title "ours (C, measured)" lc rgb "#1b7837", \
     ""                    every ::1 using (pos($9)) title "thesis (C#, i9-10900K)" lc rgb "#2166ac"
set title "3D (thesis table 3.3)"
plot outdir."/speed3d.csv" every ::1 using 4:xticlabels(2) title "ours (C, measured)" lc rgb "#1b7837", \
     ""                    every ::1 using (pos($9)) title "thesis (C#, i9-10900K)" lc rgb "#2166ac"
unset multiplot

set terminal pngcairo noenhanced size 900,520 font "sans,11"
set output imgdir."/speed_ccd.png"
set title "CCD of a turning box against 100,000 spheres: one motion, full pipeline (medians)"
set style histogram rowstacked
set style data histograms
unset logscale y
set yrange [0:*]
set xtics norotate center
set bmargin 4
set ylabel "ms per motion"
set key left top
plot outdir."/speed_ccd.csv" every ::1 using ($2*1e-6):xticlabels(stringcolumn(1)."\n".stringcolumn(14)." contacts found") title "bound construction" lc rgb "#b2182b", \
     ""                      every ::1 using ($5-$2*1e-6) title "100,000 bound tests" lc rgb "#2166ac", \
     ""                      every ::1 using ($10-$5) title "TOI on the survivors" lc rgb "#1b7837"
