/* A function of more than 400000 operations once every call of its helpers
 * is inlined (each call copies the helper and everything it calls: here
 * 2^21 copies of h0); reported once, where the budget runs out, instead of
 * lowering for minutes and gigabytes. */
static double h0(double x) { return x * 1.5 + 0.25; }
static double h1(double x) { return h0(x) + h0(x * 0.5); }
static double h2(double x) { return h1(x) + h1(x * 0.5); }
// CHECK: inline-budget.c:[[@LINE-1]]:45: error: a function of more than 400000 operations once every call of its helpers is inlined (here 'h1') is not supported in a batch/diff function; call helpers from fewer places: each call copies the helper and everything it calls (a loop, or one call whose arguments each branch chooses), or call a function of another file, which is called once per example
static double h3(double x) { return h2(x) + h2(x * 0.5); }
static double h4(double x) { return h3(x) + h3(x * 0.5); }
static double h5(double x) { return h4(x) + h4(x * 0.5); }
static double h6(double x) { return h5(x) + h5(x * 0.5); }
static double h7(double x) { return h6(x) + h6(x * 0.5); }
static double h8(double x) { return h7(x) + h7(x * 0.5); }
static double h9(double x) { return h8(x) + h8(x * 0.5); }
static double h10(double x) { return h9(x) + h9(x * 0.5); }
static double h11(double x) { return h10(x) + h10(x * 0.5); }
static double h12(double x) { return h11(x) + h11(x * 0.5); }
static double h13(double x) { return h12(x) + h12(x * 0.5); }
static double h14(double x) { return h13(x) + h13(x * 0.5); }
static double h15(double x) { return h14(x) + h14(x * 0.5); }
static double h16(double x) { return h15(x) + h15(x * 0.5); }
static double h17(double x) { return h16(x) + h16(x * 0.5); }
static double h18(double x) { return h17(x) + h17(x * 0.5); }
static double h19(double x) { return h18(x) + h18(x * 0.5); }
static double h20(double x) { return h19(x) + h19(x * 0.5); }
static double h21(double x) { return h20(x) + h20(x * 0.5); }
__attribute__((batch)) double f(double x) {
  return h21(x) * 2.0;
}
