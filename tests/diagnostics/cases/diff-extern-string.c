/* In a diff function, the value of a call made once per example because of
   its string literal argument carries a derivative. */
double weight(const char *name, double x) { return (name[0] - 'a') * x; }
__attribute__((batch, diff)) double f(double x) {
  return weight("w", x);
  // CHECK: diff-extern-string.c:[[@LINE-1]]:10: error: 'weight' is called once per example because of its string literal argument, so its derivative is unknown to batchdiff; pass it numbers only, with its body in this file, so that it is inlined and differentiated, compute its other arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
}
