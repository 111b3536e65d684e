# Tunnelled swings against swing speed, per engine and mode (bench/compare_bullet.cpp).
# gnuplot -e "outdir='build/bench'; imgdir='docs/img'" bench/compare_bullet.gp
set datafile separator ","
set terminal pngcairo size 1500,480 font ",11"
set output imgdir."/compare_bullet.png"
f = outdir."/compare_bullet.csv"
set logscale x
set xrange [4:500]
set xtics (5, 10, 20, 50, 100, 200, 400)
set yrange [-3:103]
set xlabel "swing speed asked (rad/s, 60 Hz)"
set ylabel "swings that tunnelled (%)"
set grid
set key top left
set multiplot layout 1,3 title "Pass-throughs (tunnelling) in Bullet 3.24 and ODE 0.16; 0 % for ODE + sectorccd"
do for [s in "blade sword bat"] {
    set title (s eq "blade" ? "blade (hinged at its middle)" : s." (hinged at its end; off its hinge from 20 rad/s)")
    plot f using (strcol(1) eq s ? $2 : 1/0):(100.0*$4/$3)  with linespoints lw 2 pt 7 title "Bullet", \
         f using (strcol(1) eq s ? $2 : 1/0):(100.0*$9/$3)  with linespoints lw 2 pt 5 dt 2 title "Bullet + CCD", \
         f using (strcol(1) eq s ? $2 : 1/0):(100.0*$14/$3) with linespoints lw 2 pt 9 title "ODE", \
         f using (strcol(1) eq s ? $2 : 1/0):(100.0*$19/$3) with linespoints lw 3 pt 13 title "ODE + sectorccd"
}
unset multiplot
