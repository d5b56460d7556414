/* A for loop's counter changed where the loop's test no longer bounds it:
 * in the body before a read ('i += 1;' then x[i] reads x[n]), in a loop
 * nested in the body, on a path that continues, through a pointer to it
 * ('int *q = &i;'), in the rest of the test, or by a read in the
 * increment after the step ('i++, s += x[i]'); also the bound changed in
 * the body ('n++'). Each reads past n ('for (i = 0; i < n; i++) s +=
 * x[i];', neither changed but by the increment, works: n elements). */
__attribute__((batch)) double body(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    i += 1;
    s += x[i];
    // CHECK: param-array-extent-counter-changed.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  }
  return s;
}

__attribute__((batch)) double nested(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    // CHECK: param-array-extent-counter-changed.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
    for (int j = 0; j < 2; j++)
      i++;
  }
  return s;
}

__attribute__((batch)) double skip(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    if (x[0] > 0.0) {
      i++;
      continue;
    }
    s += x[i];
    // CHECK: param-array-extent-counter-changed.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  }
  return s;
}

__attribute__((batch)) double down(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    // CHECK: param-array-extent-counter-changed.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
    if (s > 4.0)
      i -= 2;
  }
  return s;
}

__attribute__((batch)) double test(const double *x, int n) {
  double s = 0.0;
  int i;
  for (i = 0; i < n && (i += 1) > 0; i++)
    s += x[i];
  // CHECK: param-array-extent-counter-changed.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}

__attribute__((batch)) double inc(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++, s += x[i])
    // CHECK: param-array-extent-counter-changed.c:[[@LINE-1]]:38: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
    s *= 0.5;
  return s;
}

__attribute__((batch)) double bound(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    // CHECK: param-array-extent-counter-changed.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
    if (s > 1.0)
      n++;
  }
  return s;
}
