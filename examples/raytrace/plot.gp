# gnuplot plot.gp  (in the directory where raytrace ran): raytrace_loss.png
set terminal pngcairo size 800,420 font ",11"
set output "raytrace_loss.png"
set multiplot layout 1,2 title "Fitting the light's x to a target image (pixel\\_grad, gradient descent)"
set xlabel "step"
set grid
set ylabel "mean squared pixel error"
set logscale y
set format y "10^{%L}"
plot "raytrace_loss.dat" using 1:2 with linespoints lw 2 pt 7 lc rgb "#1060b0" notitle
unset logscale y
set format y "%g"
set ylabel "light x"
plot "raytrace_loss.dat" using 1:3 with linespoints lw 2 pt 7 lc rgb "#c04020" notitle, \
     1.5 with lines dt 2 lc rgb "black" title "target 1.5"
unset multiplot
