/* batch/diff on a declaration after the definition: the definition was
   compiled already, so nothing would be generated (the user would find out
   at link time). */
// GENERATED: g, annotated on its definition, is generated
double f(double x) { return x * x; }
__attribute__((batch, diff)) double f(double x);
// CHECK: attr-after-definition.c:[[@LINE-1]]:16: error: 'batch'/'diff' on a declaration of 'f' after its definition comes too late: nothing is generated for it; put the attribute on the definition (or on a declaration before it)
/* Repeating it after an annotated definition is fine. */
__attribute__((batch)) double g(double x) { return x + 1; }
__attribute__((batch)) double g(double x);
