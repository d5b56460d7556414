# gnuplot plot.gp  (in the directory where logreg ran): logreg.png
set terminal pngcairo size 800,480 font ",11"
set output "logreg.png"
set title "Logistic regression, minibatch SGD (logreg\\_loss\\_grad)"
set xlabel "epoch"
set ylabel "mean logistic loss"
set y2label "test accuracy"
set ytics nomirror
set y2tics
set y2range [0.4:1]
set key top right
set grid
plot "logreg_steps.dat" using 1:2 with lines lc rgb "#a0c0e0" title "minibatch loss", \
     "logreg.dat" using 1:2 with linespoints lw 2 pt 7 lc rgb "#1060b0" title "training loss (whole set)", \
     "logreg.dat" using 1:4 axes x1y2 with linespoints lw 2 pt 5 lc rgb "#c04020" title "test accuracy"
