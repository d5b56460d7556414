#!/bin/sh
# deep_uniform_if.sh N: an annotated function with N nested ifs on a
# BD_UNIFORM parameter (found/README.md: from about 255 on, the generated
# code passes clang's 256 levels of brackets).
n=${1:-300}
awk -v n="$n" 'BEGIN {
  printf "#include <batchdiff.h>\nBATCHDIFF double f(double x, BD_UNIFORM double b) { ";
  for (i = 0; i < n; i++) printf "if (b > 0) ";
  print "x += 1; return x * b; }" }'
