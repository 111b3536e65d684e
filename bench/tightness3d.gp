# Jaccard of the 4-band sweep and of the thesis' sector against the turn
# angle (bench/tightness3d.c). Variables: outdir (tables), imgdir (PNGs).
if (!exists("outdir")) outdir = "build/bench"
if (!exists("imgdir")) imgdir = "docs/img"
set terminal pngcairo size 900,550 noenhanced
set output imgdir."/tightness3d_angle.png"
set title "Thesis protocol (seed 000 §3.1): Jaccard against the exact sweep"
set xlabel "turn angle (degrees)"
set ylabel "Jaccard |T ∩ B| / |T ∪ B|"
set yrange [0:1]
set grid
set key right bottom
plot outdir."/tightness3d_angle.dat" using 1:2 with linespoints title "ours, 4 bands", \
     outdir."/tightness3d_angle.dat" using 1:3 with linespoints title "thesis sector (eq 2.1)"
