# gnuplot plot.gp  (in the directory where rnn ran): rnn.png
set terminal pngcairo size 800,480 font ",11"
set output "rnn.png"
set title "Elman RNN on ragged sequences (1..16 steps): training loss (rnn\\_loss\\_grad + Adam)"
set xlabel "Adam step (32 sequences each)"
set ylabel "mean squared-error loss / 2"
set logscale y
set format y "10^{%L}"
set grid
set key top right
plot "rnn.dat" using 1:2 with lines lc rgb "#a0c0e0" title "minibatch loss", \
     "rnn.dat" using 1:3 with linespoints lw 2 pt 7 lc rgb "#1060b0" title "test loss (512 sequences)"
