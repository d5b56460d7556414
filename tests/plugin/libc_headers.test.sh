# The C library's headers found through -I (musl's own build, a sysroot
# passed with -I instead of -isystem) are user headers to clang, so their
# macros were hidden around the generated code like a file's own `#define B
# 2` (inject/Inject.cpp, shieldMacros), while their reserved include guards
# stayed defined: the runtime headers' `#include <math.h>` then read nothing
# and FP_ILOGBNAN, INT32_MIN were undefined (musl's significand.c, exp10.c).
# inputs/libc_dir's <math.h> and <stdint.h> define those macros outside a
# system header, as such a library does; the results must be the scalar
# function's.
. "$SRC/lib.sh"

cat >sig.c <<'EOF2'
#include <math.h>
#include <stdint.h>
#define B 2 /* a user's macro: still hidden from the runtime headers */
__attribute__((batch, diff)) double sig(double x, int k) {
  int e = ilogb(x);
  return scalbn(x, -e) * B + (double)(k / (e | 1)) + (double)(k % 7);
}
EOF2
bdcc -O2 -I"$IN/libc_dir" -c sig.c -o sig.o
expect_syms sig.o sig_batched sig_grad

cat >main.c <<'EOF2'
#include <stdio.h>
#include <string.h>
double sig(double, int);
void sig_batched(size_t, const double *, const int *, double *);
int main(void) {
  double x[37], r[37];
  int k[37];
  for (int i = 0; i < 37; i++) {
    x[i] = (i - 18) * 3.7e3 + 0.25 * i;
    k[i] = (i * 7919) % 1001 - 500;
  }
  x[0] = 0.0;
  x[1] = 1e-310; /* subnormal: ilogb scales it up */
  sig_batched(37, x, k, r);
  for (int i = 0; i < 37; i++) {
    double s = sig(x[i], k[i]);
    if (memcmp(&s, &r[i], sizeof s)) {
      printf("sig(%g, %d): batched %.17g scalar %.17g\n", x[i], k[i], r[i], s);
      return 1;
    }
  }
  return 0;
}
EOF2
"$CLANG" -O2 -c main.c -o main.o
run_rc 0 "$CLANG" main.o sig.o "$RTLIB" -lsleef -lm -lpthread -o sig
run_rc 0 ./sig
