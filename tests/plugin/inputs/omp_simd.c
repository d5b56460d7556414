/* omp_simd.test.sh: each function with a loop under '#pragma omp simd'
 * (P), and a use of a variable that only that loop makes: the compile with
 * -fopenmp-simd or -fopenmp must emit the same code as without the pragma
 * (-DP=). Before the AST walks saw through the loop's outlined region
 * (CapturedStmt), the static scratch array and the pointer set to NULL were
 * errors, and a walk missing the loop could make other code. */
#include <batchdiff.h>
#include <stddef.h>
#ifndef P
#define P _Pragma("omp simd")
#endif
double g1; static double g2[4]; double g3 = 2;
struct S { double a, b; };
/* a global written only in the loop */
BATCHDIFF double c_glob(double x) {
  P for (int i = 0; i < 3; i++) g1 = x * i;
  return x;
}
/* a global read only in the loop */
BATCHDIFF double c_globr(double x) {
  double s = 0;
  P for (int i = 0; i < 3; i++) s += g3 * x;
  return s;
}
/* static local scratch used in the loop */
BATCHDIFF double c_static(double x) {
  static double t[4];
  double s = 0;
  P for (int i = 0; i < 4; i++) { t[i] = x * i; s += t[i]; }
  return s;
}
/* a NULL pointer assigned in the loop */
BATCHDIFF double c_null(const double w[4], double x) {
  const double *p = NULL;
  P for (int i = 0; i < 4; i++) { if (w[i] > x) p = &w[i]; }
  return p ? *p : 0.0;
}
/* pointer walk inside the loop */
BATCHDIFF double c_walk(int n, const double *w) {
  double s = 0;
  const double *q = w;
  P for (int i = 0; i < n; i++) { s += *q; q++; }
  return s;
}
/* goto and continue inside */
BATCHDIFF double c_goto(const double w[4]) {
  double s = 0;
  P for (int i = 0; i < 4; i++) { if (w[i] < 0) continue; if (w[i] > 1) goto big; s += w[i]; continue; big: s += 1; }
  return s;
}
/* struct local used inside */
BATCHDIFF double c_struct(const double w[4]) {
  struct S st = {0, 0};
  P for (int i = 0; i < 4; i++) { st.a += w[i]; st.b = w[i]; }
  return st.a * st.b;
}
/* function pointer chosen outside, called inside */
static double sq(double v) { return v * v; }
static double cu(double v) { return v * v * v; }
BATCHDIFF double c_fp(const double w[4], double x) {
  double (*f)(double) = x > 0 ? sq : cu;
  double s = 0;
  P for (int i = 0; i < 4; i++) s += f(w[i]);
  return s;
}
/* counter declared outside, read after */
BATCHDIFF double c_after(int n, const double *w) {
  int i; double s = 0;
  P for (i = 0; i < n; i++) s += w[i];
  return s + i;
}
/* write array output inside */
BATCHDIFF void c_out(const double w[4], double out[4]) {
  P for (int i = 0; i < 4; i++) out[i] = w[i] * 2;
}
/* volatile in loop */
BATCHDIFF double c_vol(double x) {
  double s = 0;
  P for (int i = 0; i < 2; i++) { volatile double v = x; s += v; }
  return s;
}
/* 2D local */
BATCHDIFF double c_2d(const double w[4]) {
  double m[2][2];
  P for (int i = 0; i < 2; i++) { m[i][0] = w[i]; m[i][1] = w[i + 2]; }
  return m[0][0] * m[1][1] - m[0][1] * m[1][0];
}
