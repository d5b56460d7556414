/* A static local table of two dimensions passed whole to a function
   called once per example: the generated code passes a copy of a static
   local table, of one dimension only. */
// GENERATED: f waits for lookup's body until the file ends; the declarations of f_batched are injected right after f
double lookup(const double (*t)[2], int k);
__attribute__((batch)) double f(double x, int k) {
  static const double T[2][2] = {{1.0, 2.0}, {3.0, 4.0}};
  return x * lookup(T, k);
  // CHECK: call-extern-static-table.c:[[@LINE-1]]:21: error: passing the static local table 'T' to 'lookup', which is called once per example, is not supported in a batch/diff function; pass a one-dimensional table of numbers with a constant initializer, or a file-scope 'const' table
}
