#!/bin/sh
# deep_select_arms.sh N: an annotated function returning a chain of N
# conditionals whose arms are active values, (y > N-0.5 ? z * N : ... :
# y > 0.5 ? z * 1 : x) * y (found/README.md: the gradient's merged masks
# were rebuilt per arm, N^2 / 2 mask operations in the emitted code).
n=${1:-400}
awk -v n="$n" 'BEGIN {
  printf "__attribute__((batch, diff)) double f(double x, double y, double z) { return (";
  for (k = n; k >= 1; k--) printf "y > %d.5 ? z * %d : ", k - 1, k;
  print "x) * y; }" }'
