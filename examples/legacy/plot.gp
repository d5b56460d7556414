# gnuplot plot.gp  (in the directory where legacy ran): legacy.png
set terminal pngcairo size 700,480 font ",11"
set output "legacy.png"
set title "Kepler's equation E - e sin E = M, solved by ecc\\_anomaly\\_batched"
set xlabel "mean anomaly M"
set ylabel "eccentric anomaly E"
set grid
set key top left
plot for [k=0:3] "legacy.dat" using 1:(column(2+k)) with lines lw 2 \
     title sprintf("e = %s", word("0 0.3 0.7 0.95", k+1))
