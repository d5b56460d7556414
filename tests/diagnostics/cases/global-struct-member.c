/* Reading a global struct with a member of a type without lanes (a
 * pointer); a const one's supported members read at constant indices are
 * constants and work. */
static const double C[3] = {1.0, 2.0, 3.0};
struct poly { const double *c; int n; };
struct poly PL = {C, 3};
__attribute__((batch, diff)) double f(double x) {
  return x * PL.n;
  // CHECK: global-struct-member.c:[[@LINE-1]]:14: error: pointer member 'c' of 'struct poly' is not supported in a batch/diff function; keep the data in an array member, or pass it as an array parameter
}
