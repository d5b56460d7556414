/* A loop's counter that starts below 0 or is stepped down under a '<'
 * test, and indices below 0 of constant-bound loops or constants: each
 * reads before the array, which no extent describes; so does a while
 * loop's counter given a value with a subtraction outside it ('i = i -
 * 5;' after the loop, in a loop around it). ('for (i = 0; i < n; i++) s
 * += x[i];' works: n elements; a start the text does not give, 'for (i =
 * k; ...)', is the caller's, as in the scalar function.) */
__attribute__((batch)) double from(const double *x, int n) {
  double s = 0.0;
  for (int i = -3; i < n; i++)
    s += x[i];
  // CHECK: param-array-extent-negative.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}

__attribute__((batch)) double below(const double *x, int n) {
  double s = 0.0;
  for (int i = -1; i <= n - 1; i++)
    s += x[i];
  // CHECK: param-array-extent-negative.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}

__attribute__((batch)) double loop(const double *x, int n) {
  double s = 0.0;
  int i = -2;
  while (i < n) {
    s += x[i];
    // CHECK: param-array-extent-negative.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
    i++;
  }
  return s;
}

__attribute__((batch)) double again(const double *x, int n) {
  double s = 0.0;
  int i = 0;
  for (int k = 0; k < 3; k++) {
    while (i < n) {
      s += x[i];
      // CHECK: param-array-extent-negative.c:[[@LINE-1]]:14: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
      i++;
    }
    i = i - 5;
  }
  return s;
}

__attribute__((batch)) double back(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i--) {
    s += x[i];
    // CHECK: param-array-extent-negative.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
    if (s > 4.0)
      break;
  }
  return s;
}

__attribute__((batch)) double range(const double *x) {
  double s = 0.0;
  for (int i = 0; i < 4; i++)
    s += x[i - 1];
  // CHECK: param-array-extent-negative.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}

__attribute__((batch)) double constant(const double *x) {
  return x[2] - x[-1];
  // CHECK: param-array-extent-negative.c:[[@LINE-1]]:19: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
}
