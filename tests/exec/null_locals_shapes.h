/* The shapes of test_null_locals.c, included twice: with the null pointer
 * initializers numeric C writes (INIT(v) is `= v`, NULLED(s) is s) and
 * without them (INIT(v) and NULLED(s) empty), the form accepted before.
 * SHAPE(name) names each version's functions. No include guard. */

/* if/else, the function of the report: `const double *c = 0;`. */
BATCHDIFF double SHAPE(nl_ifelse)(double x) {
  const double *c INIT(0);
  if (x < 1)
    c = TA;
  else
    c = TB;
  return c[0] + c[1] * x + c[2] * x * x;
}

/* A chain of else-ifs, tables of different lengths, Horner's loop. */
BATCHDIFF double SHAPE(nl_chain)(double x) {
  const double *c INIT(NULL);
  int n;
  if (x < -2) {
    c = TC;
    n = 5;
  } else if (x < 0) {
    c = TA;
    n = 3;
  } else if (x < 3) {
    c = TB;
    n = 3;
  } else {
    c = TD;
    n = 4;
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s = s * x + c[i];
  return s;
}

/* Every arm of a switch, at offsets into the tables. */
BATCHDIFF double SHAPE(nl_switch)(double x, int k) {
  const double *c INIT((void *)0);
  switch (k & 3) {
  case 0:
    c = TA;
    break;
  case 1:
    c = TB;
    break;
  case 2:
    c = TC + 1;
    break;
  default:
    c = &TD[1];
    break;
  }
  return c[0] * x + c[1];
}

/* float: set to NULL again, assigned before a loop that walks it, then
 * re-assigned after it. */
BATCHDIFF float SHAPE(nl_float)(float x) {
  const float *c INIT((float *)0);
  NULLED(c = NULL;)
  c = x > 0 ? FP : FN;
  float s = 0;
  for (int i = 0; i < 4; i++)
    s = s * x + *c++;
  c = FQ;
  return s + c[1] * x;
}

/* Passed on to a helper after the if/else, and copied into another
 * pointer there. */
BATCHDIFF double SHAPE(nl_passon)(double x) {
  const double *c INIT(NULL);
  if (x < 1)
    c = TC;
  else
    c = TD;
  return nl_poly3(x, c) + nl_poly3(2 * x, c + 1);
}

/* A static inline helper choosing a part of its array parameter, copied
 * into another pointer at an offset: gradients through the entries. */
static inline double SHAPE(nl_pick)(double x, const double *w) {
  const double *c INIT(NULL);
  if (x < 0)
    c = w;
  else
    c = w + 3;
  const double *d = c + 1;
  return c[0] + d[0] * x + d[1] * x * x;
}
BATCHDIFF double SHAPE(nl_helper)(double x, const double w[6]) {
  return SHAPE(nl_pick)(x, w) + SHAPE(nl_pick)(-x, w);
}

/* batch only: a pointer into a local array, written through. */
__attribute__((batch)) double SHAPE(nl_local)(double x, int k) {
  double t[4] = {x, 2 * x, x * x, 1};
  double *p INIT(0);
  if (k > 0)
    p = &t[1];
  else
    p = t;
  p[0] += 1;
  NULLED(p = 0;)
  p = k > 1 ? t + 2 : t;
  return t[0] + t[1] * t[2] + p[1];
}
