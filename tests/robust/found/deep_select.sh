#!/bin/sh
# deep_select.sh N: an annotated function assigning a chain of N
# conditionals, x = x > 0 ? 0 : x > 1 ? 1 : ... : x (found/README.md: the
# gradient's compile time grows as N squared, in LLVM's InstCombine).
n=${1:-1000}
awk -v n="$n" 'BEGIN {
  printf "__attribute__((batch, diff)) double f(double x) { x = ";
  for (i = 0; i < n; i++) printf "x > %d ? %d : ", i, i;
  print "x; return x * x; }" }'
