#!/bin/sh
# deep_sum.sh N: an annotated function returning a sum of N products
# (found/README.md: compile time grows faster than N).
n=${1:-20000}
awk -v n="$n" 'BEGIN {
  printf "__attribute__((batch, diff)) double f(double x) { return x * 1.5";
  for (i = 1; i < n; i++) printf " + x * 1.5";
  print "; }" }'
