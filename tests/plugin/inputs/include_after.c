/* Annotated definitions followed directly by the file's first #include of a
 * system header that the runtime headers include too: the parser's
 * lookahead is already inside that header (its include guard defined, its
 * declarations not yet parsed), so the generated code waits until the
 * parser has left it. Checked against the scalar functions by main(). */
__attribute__((batch, diff)) double sq(double x) { return x * x + 1.0; }
#include <stdint.h>

__attribute__((batch)) float half(float x) { return x * 0.5f; }
#include <math.h>
#include <stdio.h>

static int32_t bits_of(float x) {
  union {
    float f;
    int32_t i;
  } u = {x};
  return u.i;
}

/* A definition the header's own parse is followed by, then a call. */
__attribute__((batch)) double cube(double x) { return x * x * x; }
#include <string.h>

int main(void) {
  double x[5] = {-2.0, -0.5, 0.0, 1.5, 3.0}, y[5], dx[5] = {0}, z[5];
  float xf[5] = {-2.0f, -0.5f, 0.0f, 1.5f, 3.0f}, yf[5];
  sq_batched(5, x, y);
  sq_grad(5, x, NULL, NULL, dx);
  half_batched(5, xf, yf);
  cube_batched(5, x, z);
  int bad = 0;
  for (int i = 0; i < 5; i++) {
    bad += memcmp(&y[i], &(double){sq(x[i])}, sizeof(double)) != 0;
    bad += dx[i] != 2.0 * x[i];
    bad += bits_of(yf[i]) != bits_of(half(xf[i]));
    bad += z[i] != cube(x[i]);
  }
  if (bad || fabs(y[0]) != 5.0)
    printf("%d mismatches\n", bad);
  return bad != 0;
}
