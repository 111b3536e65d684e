# Plots for bench/accuracy.c (seed 000 figs 3.8-3.9): accuracy per 10° of turn
# and per box shape, against the exact sweep. Variables: outdir (CSV), imgdir (PNG).
if (!exists("outdir")) outdir = "build/bench"
if (!exists("imgdir")) imgdir = "docs/img"
set datafile separator ","
set terminal pngcairo size 900,600 font "sans,11"
set key outside center bottom horizontal maxrows 2
set grid
set yrange [0:100]
set ylabel "accuracy |M ∩ T| / |M ∪ T| (%)"
set style data linespoints

set output imgdir."/accuracy_angle.png"
set title "3D accuracy per 10° of turn (thesis' protocol, exact sweep as truth)"
set xlabel "turn α (degrees, bin centre)"
set xrange [0:360]
set xtics 30
plot outdir."/accuracy_angle.csv" using (($1+$2)/2):(100*$9) title "ours, 4 bands" lc rgb "#1b7837" lw 2 pt 7 ps 0.6, \
     ""                           using (($1+$2)/2):(100*$7) title "ours, 1 band" lc rgb "#7fbf7b" lw 2 pt 5 ps 0.6, \
     ""                           using (($1+$2)/2):(100*$6) title "thesis sector" lc rgb "#2166ac" lw 2 pt 9 ps 0.6, \
     ""                           using (($1+$2)/2):(100*$5) title "S-CCD" lc rgb "#b2182b" lw 2 pt 11 ps 0.6, \
     ""                           using (($1+$2)/2):(100*$4) title "DCCD, 100 sub-steps" lc rgb "#555555" lw 1 dt 2 pt 1 ps 0.6, \
     ""                           using (($1+$2)/2):(100*$12) title "thesis sector vs DCCD (as fig 3.8)" lc rgb "#92c5de" lw 2 dt 3 pt 0

set output imgdir."/accuracy_shape.png"
set title "3D accuracy per box shape (trials sorted by Wy − Wx, equal-count bins; fig 3.9)"
set xlabel "Wy − Wx (bin mean of its range)"
set xrange [*:*]
set xtics auto
plot outdir."/accuracy_shape.csv" using (($2+$3)/2):(100*$10) title "ours, 4 bands" lc rgb "#1b7837" lw 2 pt 7 ps 0.6, \
     ""                           using (($2+$3)/2):(100*$8) title "ours, 1 band" lc rgb "#7fbf7b" lw 2 pt 5 ps 0.6, \
     ""                           using (($2+$3)/2):(100*$7) title "thesis sector" lc rgb "#2166ac" lw 2 pt 9 ps 0.6, \
     ""                           using (($2+$3)/2):(100*$6) title "S-CCD" lc rgb "#b2182b" lw 2 pt 11 ps 0.6, \
     ""                           using (($2+$3)/2):(100*$5) title "DCCD, 100 sub-steps" lc rgb "#555555" lw 1 dt 2 pt 1 ps 0.6

set output imgdir."/accuracy_free_angle.png"
set title "3D accuracy per 10° of turn, any pose (no thesis constraint; exact sweep as truth)"
set xlabel "turn α (degrees, bin centre)"
set xrange [0:360]
set xtics 30
plot outdir."/accuracy_free_angle.csv" using (($1+$2)/2):(100*$8) title "ours, 4 bands" lc rgb "#1b7837" lw 2 pt 7 ps 0.6, \
     ""                                using (($1+$2)/2):(100*$6) title "ours, 1 band" lc rgb "#7fbf7b" lw 2 pt 5 ps 0.6, \
     ""                                using (($1+$2)/2):(100*$5) title "S-CCD" lc rgb "#b2182b" lw 2 pt 11 ps 0.6, \
     ""                                using (($1+$2)/2):(100*$4) title "DCCD, 100 sub-steps" lc rgb "#555555" lw 1 dt 2 pt 1 ps 0.6
