# Tunnelled swings against swing speed, per engine and mode (bench/compare_bullet.cpp).
# gnuplot -e "outdir='build/bench'; imgdir='docs/img'" bench/compare_bullet.gp
set datafile separator ","
set terminal pngcairo size 1300,900 font ",11"
set output imgdir."/compare_bullet.png"
f = outdir."/compare_bullet.csv"
set logscale x
set xrange [4:500]
set xtics (5, 10, 20, 50, 100, 200, 400)
set yrange [-3:103]
set xlabel "speed asked (rad/s, 60 Hz)"
set ylabel "tunnelled (% of swings or spheres)"
set grid
set key top left
set multiplot layout 2,2 title "Pass-throughs in Bullet 3.24 and ODE 0.16 (ODE + sectorccd: none; but its rotor stalls, see the table)"
do for [s in "blade sword bat rotor"] {
    set title s.(s eq "blade" ? " (hinged at its middle)" : s eq "rotor" ? " (spheres flying through its disc)" : " (hinged at its end; off its hinge from 20 rad/s)")
    plot f using (strcol(1) eq s ? $2 : 1/0):(100.0*$4/$3)  with linespoints lw 2 pt 7 title "Bullet", \
         f using (strcol(1) eq s ? $2 : 1/0):(100.0*$10/$3) with linespoints lw 2 pt 5 dt 2 title "Bullet + CCD", \
         f using (strcol(1) eq s ? $2 : 1/0):(100.0*$16/$3) with linespoints lw 2 pt 9 title "ODE", \
         f using (strcol(1) eq s ? $2 : 1/0):(100.0*$22/$3) with linespoints lw 3 pt 13 title "ODE + sectorccd"
}
unset multiplot
