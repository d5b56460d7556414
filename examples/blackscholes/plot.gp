# gnuplot plot.gp  (in the directory where blackscholes ran): blackscholes.png
# Price and delta = d price / d S of a call (K = 100, sigma = 0.3), both from
# one bs_call_grad call; T = 0 is the expired branch (intrinsic value).
set terminal pngcairo size 900,420 font ",11"
set output "blackscholes.png"
set multiplot layout 1,2 title "Black-Scholes call, K = 100: price and delta from bs\\_call\\_grad"
set xlabel "spot S"
set grid
set key top left
set ylabel "price"
plot for [t=0:3] "blackscholes.dat" using 1:(column(2+2*t)) with lines lw 2 \
     title sprintf("T = %s", word("0 0.1 0.5 2", t+1))
set ylabel "delta (d price / d S)"
set yrange [-0.05:1.05]
plot for [t=0:3] "blackscholes.dat" using 1:(column(3+2*t)) with lines lw 2 \
     title sprintf("T = %s", word("0 0.1 0.5 2", t+1))
unset multiplot
