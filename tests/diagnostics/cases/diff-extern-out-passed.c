/* In a diff function, a value a function defined in another file leaves
   through a pointer passed on (a helper's parameter bound to '&yh', as R's
   choose passes '&s_choose' to lfastchoose2) carries a derivative: its
   arguments depend on x and it reaches the result. The error is at the
   helper's call, named as the helper has it ('*h'); a note at each call of
   the helpers that bound the pointer shows the caller's variable. */
// GENERATED: f waits for ebd0's body until the file ends; the declarations of f_batched/f_grad are injected right after f
void ebd0(double x, double M, double *yh, double *yl);
static void both(double x, double *h, double *l) { ebd0(x, 2.0, h, l); }
// CHECK: diff-extern-out-passed.c:[[@LINE-1]]:65: error: the value 'ebd0' leaves in '*h' ('h' points to 'yh') carries no derivative: 'ebd0' is called once per example and batchdiff does not see its body; define it in this file (static inline in the header that declares it, or marked batch/diff) so that it is inlined and differentiated, use 'yh' only where no derivative is needed (a flag, a comparison), compute the call's arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
// CHECK-NEXT: diff-extern-out-passed.c:[[@LINE+4]]:11: note: 'both' is called here with '&yh' as 'h'
static void outer(double x, double *o, double *l) { both(2.0 * x, o, l); }
__attribute__((batch, diff)) double f(double x) {
  double yh, yl;
  both(x, &yh, &yl);
  return yh;
}
/* Through two helpers: a note at each call. */
__attribute__((batch, diff)) double g(double x) {
  double yh, yl;
  outer(x, &yh, &yl);
  return yh;
}
// CHECK-NEXT: diff-extern-out-passed.c:9:65: error: the value 'ebd0' leaves in '*h' ('h' points to 'yh') carries no derivative: 'ebd0' is called once per example and batchdiff does not see its body; define it in this file (static inline in the header that declares it, or marked batch/diff) so that it is inlined and differentiated, use 'yh' only where no derivative is needed (a flag, a comparison), compute the call's arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
// CHECK-NEXT: diff-extern-out-passed.c:12:67: note: 'both' is called here with 'o' as 'h'
// CHECK-NEXT: diff-extern-out-passed.c:21:12: note: 'outer' is called here with '&yh' as 'o'
/* A local pointer at a local: named as '*p', no note. */
__attribute__((batch, diff)) double h(double x) {
  double yh, yl;
  double *p = &yh;
  ebd0(x, 1.0, p, &yl);
  // CHECK: diff-extern-out-passed.c:[[@LINE-1]]:16: error: the value 'ebd0' leaves in '*p' ('p' points to 'yh') carries no derivative: 'ebd0' is called once per example and batchdiff does not see its body; define it in this file (static inline in the header that declares it, or marked batch/diff) so that it is inlined and differentiated, use 'yh' only where no derivative is needed (a flag, a comparison), compute the call's arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
  return *p;
}
/* A helper called through a function pointer that may be one of several:
   the note too. */
static void other(double x, double *h, double *l) { *h = x, *l = x; }
__attribute__((batch, diff)) double c(double x, int k) {
  double yh, yl;
  void (*fp)(double, double *, double *) = k ? both : other;
  fp(x, &yh, &yl);
  return yh;
}
// CHECK: diff-extern-out-passed.c:9:65: error: the value 'ebd0' leaves in '*h' ('h' points to 'yh') carries no derivative: 'ebd0' is called once per example and batchdiff does not see its body; define it in this file (static inline in the header that declares it, or marked batch/diff) so that it is inlined and differentiated, use 'yh' only where no derivative is needed (a flag, a comparison), compute the call's arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
// CHECK-NEXT: diff-extern-out-passed.c:[[@LINE-4]]:9: note: 'both' is called here with '&yh' as 'h'
