# Tightness of the 2D sweeps against the number of bands (bench/tightness2d.c).
# gnuplot -e "outdir='build/bench'; imgdir='docs/img'" bench/tightness2d.gp
set datafile separator ","
set terminal pngcairo size 800,450 font ",11"
set output imgdir."/tightness2d_area.png"
set title "2D sweeps: share of the bound's area that is truly swept"
set xlabel "radial bands"
set ylabel "truly swept / bound area (%)"
set logscale x 2
set xrange [0.9:9]
set xtics ("1" 1, "2" 2, "4" 4, "8" 8)
set yrange [0:100]
set key bottom right
set grid ytics
f = outdir."/tightness2d.csv"
plot f using ((strcol(1) eq "thesis" && $3 > 0) ? $3 : 1/0):($9*100) with linespoints lw 2 pt 7 title "box about a pivot outside it (thesis protocol)", \
     f using ((strcol(1) eq "general" && $3 > 0) ? $3 : 1/0):($9*100) with linespoints lw 2 pt 5 title "boxes, polygons, capsules, circles; any centre", \
     f using ((strcol(1) eq "spin" && $3 > 0) ? $3 : 1/0):($9*100) with linespoints lw 2 pt 9 title "long box or capsule turning about its centre (engine step)"
