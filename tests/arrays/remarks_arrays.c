/* -fplugin-arg-batchdiff-remarks for array parameters: the inferred dims
 * of each extent form, and the ragged note when the extent parameter is
 * varying (checked with FileCheck by the arrays.remarks test). */
#include <batchdiff.h>

/* static, declared */
BATCHDIFF double r_decl(const double x[3]) { return x[0] + x[1] * x[2]; }
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-1]]:38: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; input array, dims static 3 (declared){{$}}

/* static, declared with [static N] */
BATCHDIFF float r_sdecl(const float v[static 4]) { return v[0] * v[3]; }
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-1]]:37: remark: batchdiff: parameter 'v' is varying (one value per example), differentiated; input array, dims static 4 (declared){{$}}

/* static, from constant indices (the largest is 5) */
BATCHDIFF double r_const(const double *c, double t) { return c[0] + t * c[5]; }
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-1]]:40: remark: batchdiff: parameter 'c' is varying (one value per example), differentiated; input array, dims static 6 (constant indices){{$}}

/* dynamic, declared VLA; n varying: ragged */
BATCHDIFF double r_vla(int n, const double x[n]) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:44: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (declared); ragged: each example's extent differs, accesses are masked per lane{{$}}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:{{[0-9]+}}: remark: batchdiff: r_vla_batched: BD_WD lanes of 64 bits; 1 of 1 branch(es) and 1 of 1 loop(s) differ per example and run under an execution mask; the rest are uniform{{$}}

/* dynamic, from a loop bound; n uniform: no mask, no ragged note */
BATCHDIFF float r_loop(const float *x, BD_UNIFORM int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:37: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (loop bound){{$}}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:55: remark: batchdiff: parameter 'n' is uniform (one value for the whole batch); scalar, no dims{{$}}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-8]]:{{[0-9]+}}: remark: batchdiff: r_loop_batched: BD_WN lanes of 32 bits; {{[0-9]+}} of {{[0-9]+}} branch(es) and 0 of 1 loop(s) differ per example and run under an execution mask; the rest are uniform{{$}}

/* dynamic from a loop bound, ragged; a uniform weight array and an output
 * array with the same extent */
BATCHDIFF void r_out(const double *w BD_UNIFORM, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = w[i] * 2.0;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-4]]:36: remark: batchdiff: parameter 'w' is uniform (one value for the whole batch), differentiated; input array, dims dynamic, from parameter 'n' (loop bound); ragged: each example's extent differs, accesses are masked per lane{{$}}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-5]]:58: remark: batchdiff: parameter 'y' is varying (one value per example), differentiated; output array, dims dynamic, from parameter 'n' (loop bound); ragged: each example's extent differs, accesses are masked per lane{{$}}

/* int elements: not differentiated */
__attribute__((batch)) int r_int(const int k[2]) { return k[0] - k[1]; }
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-1]]:44: remark: batchdiff: parameter 'k' is varying (one value per example); input array, dims static 2 (declared){{$}}

/* static, from the index range of constant-bound loops (issue 13):
 * a[i + 1] with i < 4 reaches 4, a[2 * k] with k from 3 down reaches 6 */
BATCHDIFF double r_range(double x, const double *a) {
  double s = 0.0;
  for (int i = 1; i < 4; i++)
    s += a[i - 1] * x + a[i + 1];
  for (int k = 3; k >= 0; k--)
    s += a[2 * k];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-8]]:50: remark: batchdiff: parameter 'a' is varying (one value per example), differentiated; input array, dims static 7 (index range of constant-bound loops){{$}}

/* static, a pointer out-parameter written through a helper */
static inline void put2(double *o, double v) { *o = 2.0 * v; }
BATCHDIFF void r_outp(double x, double *o) { put2(o, x); }
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-1]]:41: remark: batchdiff: parameter 'o' is varying (one value per example), differentiated; output array, dims static 1 (constant indices, through pointers and helper calls){{$}}

/* dynamic, a pointer walked by a counted loop with no end pointer */
BATCHDIFF double r_walk(const double *p, int n, const double *q, int m) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += *p++;
  while (m-- > 0)
    s *= *q++;
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-8]]:39: remark: batchdiff: parameter 'p' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (pointer walk '*p++' in a loop of at most 'n' iterations); ragged: each example's extent differs, accesses are masked per lane{{$}}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-9]]:63: remark: batchdiff: parameter 'q' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'm' (pointer walk '*q++' in a loop of at most 'm' iterations); ragged: each example's extent differs, accesses are masked per lane{{$}}

/* dynamic, interleaved records: k * n declared, from indices k * i + c,
 * from a walk by q += k */
BATCHDIFF double r_kn(int n, const double x[2 * n]) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[2 * i] * x[2 * i + 1];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:43: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; input array, dims dynamic, 2 x parameter 'n' (declared); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_kidx(const double *p, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += p[3 * i] - p[3 * i + 2];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:39: remark: batchdiff: parameter 'p' is varying (one value per example), differentiated; input array, dims dynamic, 3 x parameter 'n' (loop bound, indices 3 * i + c); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_kwalk(const double *p, int n) {
  double s = 0.0;
  const double *q = p;
  for (int i = 0; i < n; i++, q += 2)
    s += q[0] * q[1];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:40: remark: batchdiff: parameter 'p' is varying (one value per example), differentiated; input array, dims dynamic, 2 x parameter 'n' (pointer walk 'q += 2' in a loop of at most 'n' iterations); ragged: each example's extent differs, accesses are masked per lane{{$}}

/* dynamic, the parameter stepped itself: 'p += k', 'p++' */
BATCHDIFF double r_self(const double *p, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += p[0] * p[1];
    p += 2;
  }
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-8]]:39: remark: batchdiff: parameter 'p' is varying (one value per example), differentiated; input array, dims dynamic, 2 x parameter 'n' (pointer walk 'p += 2' in a loop of at most 'n' iterations); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_selfinc(const double *p, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++, p++)
    s += *p;
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:42: remark: batchdiff: parameter 'p' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (pointer walk 'p++' in a loop of at most 'n' iterations); ragged: each example's extent differs, accesses are masked per lane{{$}}

/* nested walks: a row pointer stepped by 4 or by a parameter, '*p++' in an
 * inner loop, all-constant loops */
BATCHDIFF double r_rows(const double *A, const double v[4], int r) {
  const double *row = A;
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < 4; j++)
      s += row[j] * v[j];
    row += 4;
  }
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-10]]:39: remark: batchdiff: parameter 'A' is varying (one value per example), differentiated; input array, dims dynamic, 4 x parameter 'r' (pointer walk 'row += 4' in a loop of at most 'r' iterations); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_rc(const double *A, const double *v, int r, int c) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < c; j++)
      s += A[j] * v[j];
    A += c;
  }
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-9]]:37: remark: batchdiff: parameter 'A' is varying (one value per example), differentiated; input array, dims dynamic, parameters 'r' x 'c' (pointer walk 'A += c' in a loop of at most 'r' iterations); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_flat(const double *A, const double *v, int r, int c) {
  double s = 0.0;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      s += A[i * c + j] * v[j];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:39: remark: batchdiff: parameter 'A' is varying (one value per example), differentiated; input array, dims dynamic, parameters 'r' x 'c' (row-major indices i * c + j of loops to 'r' and 'c'); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_rowptr(const double *A, const double *v, int r, int c) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    const double *row = A + i * c;
    for (int j = 0; j < c; j++)
      s += row[j] * v[j];
  }
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-9]]:41: remark: batchdiff: parameter 'A' is varying (one value per example), differentiated; input array, dims dynamic, parameters 'r' x 'c' (row-major indices i * c + j of loops to 'r' and 'c'); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_inner(const double *p, int n, const double *q) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 3; j++)
      s += *p++;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      s *= *q++;
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-10]]:40: remark: batchdiff: parameter 'p' is varying (one value per example), differentiated; input array, dims dynamic, 3 x parameter 'n' (pointer walk '*p++' in loops of at most 'n' x 3 iterations); ragged: each example's extent differs, accesses are masked per lane{{$}}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-11]]:64: remark: batchdiff: parameter 'q' is varying (one value per example), differentiated; input array, dims static 6 (pointer walk '*q++' in loops of at most 2 x 3 iterations){{$}}

/* dynamic, declared as arithmetic over integer parameters */
BATCHDIFF double r_win(int n, const double x[n + 1]) {
  double s = 0.0;
  for (int i = 0; i < n; i++, x++)
    s += x[0] * x[1];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:44: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; input array, dims dynamic, declared 'n + 1' (parameter 'n'); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_tri(int n, const double p[n * (n + 1) / 2]) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += *p++;
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:44: remark: batchdiff: parameter 'p' is varying (one value per example), differentiated; input array, dims dynamic, declared 'n * (n + 1) / 2' (parameter 'n'); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_rcx(BD_UNIFORM int r, int c, const double a[r * c]) {
  double s = 0.0;
  for (int i = 0; i < r * c; i++)
    s += a[i];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:62: remark: batchdiff: parameter 'a' is varying (one value per example), differentiated; input array, dims dynamic, declared 'r * c' (parameters 'r', 'c'); ragged: each example's extent differs, accesses are masked per lane{{$}}

/* dynamic, from the loop's start or bound: x[i - 1] from i = 1, x[i + 1]
 * under i < n - 1, counting down from n - 1, and c[n] */
BATCHDIFF double r_diff(const double *x, int n) {
  double s = 0.0;
  for (int i = 1; i < n; i++)
    s += x[i] - x[i - 1];
  for (int i = 0; i < n - 1; i++)
    s += x[i + 1];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-8]]:39: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (loop bound); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_top(const double *c, int n, double x) {
  double p = c[n];
  for (int j = n - 1; j >= 0; j--)
    p = p * x + c[j];
  return p;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:38: remark: batchdiff: parameter 'c' is varying (one value per example), differentiated; input array, dims dynamic, parameter 'n' + 1 (loop bound and index 'n'); ragged: each example's extent differs, accesses are masked per lane{{$}}

/* two- and three-dimensional VLA parameters: declared rows of a variable
 * length (r x c, 4 x c with c uniform: not ragged), rows told by a loop
 * bound (m[][c]), and rows of constant length told by the indices */
BATCHDIFF double r_vla2(int r, int c, const double m[r][c]) {
  double s = 0.0;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      s += m[i][j];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:52: remark: batchdiff: parameter 'm' is varying (one value per example), differentiated; input array, dims dynamic, declared 'r' x 'c' (parameters 'r', 'c'; row-major); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_vla4(BD_UNIFORM int c, const double m[4][c]) {
  return m[3][c - 1];
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-3]]:56: remark: batchdiff: parameter 'm' is varying (one value per example), differentiated; input array, dims dynamic, declared 4 x 'c' (parameter 'c'; row-major){{$}}
BATCHDIFF double r_vlai(int r, int c, const double m[][c]) {
  double s = 0.0;
  for (int i = 0; i < r; i++)
    s += m[i][c - 1];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:52: remark: batchdiff: parameter 'm' is varying (one value per example), differentiated; input array, dims dynamic, inferred 'r' (loop bound) x 'c' (parameters 'r', 'c'; row-major); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_vla3(int a, int b, int c, const double t[a][b][c + 1]) {
  return t[a - 1][b - 1][c];
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-3]]:59: remark: batchdiff: parameter 't' is varying (one value per example), differentiated; input array, dims dynamic, declared 'a' x 'b' x 'c + 1' (parameters 'a', 'b', 'c'; row-major); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_rowsn(const double (*m)[3], int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += m[i][2];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:41: remark: batchdiff: parameter 'm' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (loop bound, rows of 3 (row-major)); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_rowsk(const double m[][3]) { return m[1][0]; }
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-1]]:39: remark: batchdiff: parameter 'm' is varying (one value per example), differentiated; input array, dims static 6 (constant indices, 2 rows of 3 (row-major)){{$}}

/* do/while loops: the body runs once, so an index of the counter needs
 * max(n, 1) elements; a walk `*p++` until `--n > 0` max(n, 1) */
BATCHDIFF double r_do(const double *x, int n) {
  double s = 0.0;
  int i = 0;
  do {
    s += x[i];
    i++;
  } while (i < n);
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-9]]:37: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (loop bound), at least 1 (the body of a do/while loop runs once); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_dowalk(const double *p, int n) {
  double s = 0.0;
  do
    s += *p++;
  while (--n > 0);
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:41: remark: batchdiff: parameter 'p' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (pointer walk '*p++' in a loop of at most max('n', 1) iterations); ragged: each example's extent differs, accesses are masked per lane{{$}}

/* a walk `*p++` before a loop and once per iteration of it, the loop counted
 * down by a copy of a parameter (Cephes' polevl, p1evl shapes; K&R), or by
 * the parameter itself */
BATCHDIFF double r_polevl(double x, double coef[], int N) {
  double ans, *p;
  int i;
  p = coef;
  ans = *p++;
  i = N;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-11]]:44: remark: batchdiff: parameter 'coef' is varying (one value per example), differentiated; output array, dims dynamic, parameter 'N' + 1 (pointer walk '*p++', 1 before a loop of at most 'N' iterations: 'i = N; do ... while (--i)'; for 'N' >= 1: below it the scalar loop ends only when 'i' wraps around); ragged: each example's extent differs, accesses are masked per lane{{$}}
#pragma clang diagnostic ignored "-Wdeprecated-non-prototype"
BATCHDIFF double r_p1evl(x, coef, N) double x;
double coef[];
int N;
{
  double ans, *p;
  int i;
  p = coef;
  ans = x + *p++;
  i = N - 1;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-13]]:8: remark: batchdiff: parameter 'coef' is varying (one value per example), differentiated; output array, dims dynamic, from parameter 'N' (pointer walk '*p++', 1 before a loop of at most 'N' - 1 iterations: 'i = N - 1; do ... while (--i)'; for 'N' >= 2: below it the scalar loop ends only when 'i' wraps around); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_whiledec(double x, const double *c, int n) {
  const double *p;
  double s;
  int i;
  p = c;
  s = *p++;
  i = n;
  while (i--)
    s = s * x + *p++;
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-11]]:53: remark: batchdiff: parameter 'c' is varying (one value per example), differentiated; input array, dims dynamic, parameter 'n' + 1 (pointer walk '*p++', 1 before a loop of at most 'n' iterations: 'i = n; while (i--)'; for 'n' >= 0: below it the scalar loop ends only when 'i' wraps around); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_fordown(double x, const double *c, int n) {
  const double *p = c;
  double s = *p++, t = *p++;
  for (int i = n - 1; i > 0; i--)
    s = s * x + *p++;
  return s * t;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:52: remark: batchdiff: parameter 'c' is varying (one value per example), differentiated; input array, dims dynamic, parameter 'n' + 1, at least 2 (pointer walk '*p++', 2 before a loop of at most max('n' - 1, 0) iterations: 'i = n - 1; for (...; i > 0; i--)'); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_leadparam(double x, const double *c, int n) {
  const double *p = c;
  double s = *p++;
  while (n-- > 0)
    s = s * x + *p++;
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:54: remark: batchdiff: parameter 'c' is varying (one value per example), differentiated; input array, dims dynamic, parameter 'n' + 1, at least 1 (pointer walk '*p++', 1 before a loop of at most max('n', 0) iterations: 'while (n-- > 0)'); ragged: each example's extent differs, accesses are masked per lane{{$}}
/* counted down by the parameter itself: n iterations for n >= 0 (below it
 * the scalar loop runs until n wraps around) */
BATCHDIFF double r_whilewalk(const double *p, int n) {
  double s = 0.0;
  while (n--)
    s += *p++;
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:44: remark: batchdiff: parameter 'p' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (pointer walk '*p++' in a loop of at most 'n' iterations; for 'n' >= 0: below it the scalar loop ends only when 'n' wraps around); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_whileidx(const double *x, int n) {
  double s = 0.0;
  while (n--)
    s += x[n];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:43: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (loop bound; for 'n' >= 0: below it the scalar loop ends only when 'n' wraps around); ragged: each example's extent differs, accesses are masked per lane{{$}}
BATCHDIFF double r_dodec(const double *p, int n) {
  double s = 0.0;
  do
    s += *p++;
  while (--n);
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:40: remark: batchdiff: parameter 'p' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (pointer walk '*p++' in a loop of at most 'n' iterations; for 'n' >= 1: below it the scalar loop ends only when 'n' wraps around); ragged: each example's extent differs, accesses are masked per lane{{$}}
/* set once and never stepped: an offset view, indexed (not a walk) */
BATCHDIFF double r_setview(const double *x, int n) {
  const double *a;
  a = x;
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-8]]:42: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (loop bound), through 'a = x'; ragged: each example's extent differs, accesses are masked per lane{{$}}
/* x[0] besides a walk of n: read whatever n is, so at least 1 */
BATCHDIFF double r_firstwalk(const double *x, int n) {
  double s = x[0];
  for (int i = 0; i < n; i++)
    s += *x++;
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-6]]:44: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n', at least 1 (pointer walk '*x++' in a loop of at most 'n' iterations); ragged: each example's extent differs, accesses are masked per lane{{$}}
/* counted down by a local copy of n, no read before the loop: "in a loop",
 * no comma after the walk */
BATCHDIFF double r_whilecopy(const double *x, int n) {
  double s = 0.0;
  int i = n;
  while (i--)
    s += *x++;
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:44: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; input array, dims dynamic, from parameter 'n' (pointer walk '*x++' in a loop of at most 'n' iterations: 'i = n; while (i--)'; for 'n' >= 0: below it the scalar loop ends only when 'i' wraps around); ragged: each example's extent differs, accesses are masked per lane{{$}}
/* a count assigned before the loop: declared, the extent is computed on
 * entry ('n = 2 * n; while (n--) s += *p++;' alone infers none) */
BATCHDIFF double r_twicewalk(const double *p BD_EXTENT(2 * n), int n) {
  double s = 0.0;
  n = 2 * n;
  while (n--)
    s += *p++;
  return s;
}
// CHECK: {{.*}}remarks_arrays.c:[[@LINE-7]]:44: remark: batchdiff: parameter 'p' is varying (one value per example), differentiated; input array, dims dynamic, BD_EXTENT(2 * n) (parameter 'n'); ragged: each example's extent differs, accesses are masked per lane{{$}}
