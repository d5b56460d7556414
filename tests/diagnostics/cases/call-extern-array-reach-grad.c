/* One local array passed three times in one call to a function of another
   file marked batch, diff in its header, in a diff function: arguments
   whose parameters reach elements apart (declared extents at constant
   offsets) get copies of their own for the callee's NAME_grad, ones that
   reach the same elements share one; a third reaching into a second's
   copy and past it can have neither. */
// GENERATED: f waits for mix's body until the file ends; the declarations of f_batched/f_grad are injected right after f
__attribute__((batch, diff)) double mix(const double p[2], const double q[2],
                                        const double r[4]);
__attribute__((batch, diff)) double f(double x) {
  double a[8];
  for (int i = 0; i < 8; i++)
    a[i] = x * i;
  return mix(a, a + 4, a + 2);
  // CHECK: call-extern-array-reach-grad.c:[[@LINE-1]]:24: error: passing 'a' again, into elements another argument of the call reaches and past them, where its derivative comes from 'mix_grad', is not supported in a batch/diff function; pass arguments into one array that reach the same elements or none in common (each gets a copy of its own for 'mix_grad'), or copy the array into another local array for one of them
}
