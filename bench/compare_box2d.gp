# Pass-throughs, time per step, Box2D's real speed and hinge drift against the
# speed asked (bench/compare_box2d.cpp).
# gnuplot -e "outdir='build/bench'; imgdir='docs/img'" bench/compare_box2d.gp
set datafile separator ","
set terminal pngcairo size 1300,900 font ",11"
set output imgdir."/compare_box2d.png"
f = outdir."/compare_box2d.csv"
set logscale x
set xrange [4:500]
set xtics (5, 10, 20, 50, 100, 200, 400)
set xlabel "speed asked (rad/s, 60 Hz)"
set grid
set key box opaque
set multiplot layout 2,2 title "A rod hinged at its middle swung into a thin wall: Box2D 2.4, Chipmunk 7, Chipmunk + sectorccd"
set title "pass-throughs (Box2D and Chipmunk + sectorccd: none)"
set key center right
set yrange [-3:103]
set ylabel "passed through (% of starting phases)"
plot f using 1:(100.0*$3/$2) with linespoints lw 2 pt 7 title "Box2D", \
     f using 1:(100.0*$7/$2) with linespoints lw 2 pt 5 title "Chipmunk", \
     f using 1:(100.0*$9/$2) with linespoints lw 3 pt 13 dt 2 title "Chipmunk + sectorccd"
set title "time per step (thread CPU)"
set key right top at graph 0.98, graph 0.84
set yrange [0:*]
set ylabel "µs per step"
plot f using 1:6 with linespoints lw 2 pt 7 title "Box2D", \
     f using 1:8 with linespoints lw 2 pt 5 title "Chipmunk", \
     f using 1:11 with linespoints lw 3 pt 13 title "Chipmunk + sectorccd"
set title "speed really reached (Box2D caps the turn at π/2 per step)"
set logscale y
set yrange [4:500]
set ytics (5, 10, 20, 50, 100, 200, 400)
set ylabel "rad/s"
set key default
set key box opaque top left
plot f using 1:1 with lines lc rgb "black" dt 2 title "asked", \
     f using 1:4 with linespoints lw 2 pt 7 lc 1 title "Box2D"
set title "hinge drift (Box2D's TOI ignores the joint)"
unset logscale y
set ytics autofreq
set yrange [-0.03:*]
set ylabel "rod's middle to hinge (arm lengths)"
set key default
set key box opaque top left
plot f using 1:5 with linespoints lw 2 pt 7 lc 1 title "Box2D", \
     f using 1:10 with linespoints lw 3 pt 13 lc 3 title "Chipmunk + sectorccd"
unset multiplot
