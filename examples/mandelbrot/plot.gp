# gnuplot plot.gp  (in the directory where mandelbrot ran): mandelbrot.png
# mandelbrot.dat is a matrix of escape counts, row 0 at the top.
set terminal pngcairo size 820,600 font ",11"
set output "mandelbrot.png"
set title "Escape time (escape\\_batched): each vector of 4 or 8 points runs until its slowest is done"
unset key
set size ratio -1
set yrange [*:*] reverse
unset xtics
unset ytics
set logscale cb
set cblabel "iterations"
set palette defined (0 "#000020", 1 "#1060b0", 2 "#f0f0a0", 3 "#c04020", 4 "black")
plot "mandelbrot.dat" matrix with image
