/* An array member of structs the function does not write (a parameter of
   const structs, a table of the file) passed to a function of another
   file where it takes a pointer to non-const: the callee may write the
   copy it gets, and the structs are const. */
// GENERATED: f waits for pmp's body until the file ends; the declarations of f_batched/f_grad are injected right after f
typedef struct { double bm; double pv[2][3]; } body;
__attribute__((batch, diff)) void pmp(double a[3], double b[3], double amb[3]);
__attribute__((batch, diff)) double f(int n, const body b[], double ob[3]) {
  double s = 0.0, v[3];
  for (int i = 0; i < n; i++) {
#pragma clang diagnostic ignored "-Wincompatible-pointer-types-discards-qualifiers"
    pmp(ob, b[i].pv[0], v);
    // CHECK: call-extern-member-const.c:[[@LINE-1]]:13: error: passing 'b[i].pv', a member of structs the function does not write (const, or the file's), to 'pmp' as a pointer to non-const, is not supported in a batch/diff function; declare the parameter const where this file declares 'pmp' (its copy is then only read), or copy the member into a local array and pass that
    s += v[0] * b[i].bm;
  }
  return s;
}
