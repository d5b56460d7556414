/* A struct passed to a function called once per example (each example
   gets a struct of its own, GSL's gsl_sf_exp_e(x, &r)) whose members are
   not all numbers or arrays of at most 64 of them (an array member of
   100). */
// GENERATED: f waits for fill's body until the file ends; the declarations of f_batched are injected right after f
struct arr { double v[100]; int n; };
void fill(double x, struct arr *a);
__attribute__((batch)) double f(double x) {
  struct arr a;
  fill(x, &a);
  // CHECK: call-extern-struct.c:[[@LINE-1]]:11: error: passing 'a', a struct of type 'struct arr', to 'fill', which is called once per example, is not supported in a batch/diff function; such a struct may have members of numbers (scalars, arrays of at most 64 elements, nested structs of them) and a type declared at file scope with a tag or a typedef name
  return a.v[0];
}
