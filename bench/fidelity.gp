# Exit-velocity error against speed, one panel per scene (bench/fidelity.cpp):
# median over the phases for Chipmunk + sectorccd, ODE + sectorccd, plain
# Chipmunk at 60 Hz and Box2D's TOI; the worst phase with sectorccd dashed;
# the targets (5 % median, 15 % worst) as grey lines.
# gnuplot -e "outdir='build/bench'; imgdir='docs/img'" bench/fidelity.gp
if (!exists("outdir")) outdir = "build/bench"
if (!exists("imgdir")) imgdir = "docs/img"
set datafile separator ","
set datafile missing "nan"
set terminal pngcairo noenhanced size 1900,900 font ",11"
set output imgdir."/fidelity.png"
f = outdir."/fidelity.csv"
set logscale xy
set xrange [4:500]
set xtics (5, 10, 20, 50, 100, 200, 400)
set yrange [0.01:500]
set format y "%g"
set xlabel "speed asked (rad/s, 60 Hz)"
set ylabel "exit error (% of the reference)"
set grid
set key box opaque bottom right font ",9"
# column c of the rows of scene s and engine e, in percent (floored for the log scale)
pick(s, e, c) = (strcol(1) eq s && strcol(2) eq e) ? (column(c) < 1e-4 ? 0.01 : 100.0 * column(c)) : NaN
set multiplot layout 2,3 title "What is hit leaves as the physics says: exit error against the sub-stepped reference"
do for [s in "bat_still bat_inelastic bat_pitched rod_wall blade_box"] {
    set title s
    plot 5 with lines lc rgb "gray50" dt 3 notitle, \
         15 with lines lc rgb "gray50" dt 2 notitle, \
         f using 3:(pick(s, "Chipmunk", 9)) with linespoints lw 3 pt 13 lc 3 title "Chipmunk + sectorccd (median)", \
         f using 3:(pick(s, "Chipmunk", 10)) with lines lw 1 dt 2 lc 3 title "  (worst)", \
         f using 3:(pick(s, "ODE", 9)) with linespoints lw 3 pt 9 lc 4 title "ODE + sectorccd (median)", \
         f using 3:(pick(s, "ODE", 10)) with lines lw 1 dt 2 lc 4 title "  (worst)", \
         f using 3:(pick(s, "Chipmunk", 14)) with linespoints lw 2 pt 5 lc 2 title "plain Chipmunk 60 Hz", \
         f using 3:(pick(s, "Chipmunk", 19)) with linespoints lw 2 pt 7 lc 1 title "Box2D TOI"
}
unset multiplot
