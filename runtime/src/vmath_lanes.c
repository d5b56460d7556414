/* libm's functions called per lane, through arrays (vmath.h: jn, yn and
 * their float forms; SLEEF has no Bessel functions). */
#include <batchdiff/vmath.h>

/* POSIX: <math.h> hides them under -std=c11. */
double jn(int, double);
float jnf(int, float);
double yn(int, double);
float ynf(int, float);

#define BD__LANES(fn, E)                                                       \
  void bd_rt_##fn##_lanes(int lanes, const int32_t *n, const E *x, E *r) {     \
    for (int i = 0; i < lanes; i++)                                            \
      r[i] = fn(n[i], x[i]);                                                   \
  }
BD__LANES(jn, double)
BD__LANES(jnf, float)
BD__LANES(yn, double)
BD__LANES(ynf, float)
