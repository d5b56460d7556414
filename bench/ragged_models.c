/* The ragged tanh RNN of bench_ragged in three layouts (issue 11). Built
 * twice: as is, and with -fplugin-arg-batchdiff-sort-by-length=0 and
 * RG_SFX=_inorder (the caller's order), to measure what sorting gains. */
#include <batchdiff.h>
#include <math.h>

#ifndef RG_SFX
#define RG_SFX
#endif
#define RG_CAT2(a, b) a##b
#define RG_CAT(a, b) RG_CAT2(a, b)
#define RG(name) RG_CAT(name, RG_SFX)

#define RNN_BODY                                                               \
  float h = 0.0f;                                                              \
  for (int i = 0; i < n; i++)                                                  \
    h = tanhf(w * h + u * x[i]);                                               \
  return h;

/* Padded: example b at x + b * stride, stride >= the longest. */
BATCHDIFF float RG(rg_strided)(const float *x, int n, BD_UNIFORM float w,
                               BD_UNIFORM float u){RNN_BODY} BATCHDIFF
    float RG(rg_packed)(BD_PACKED const float *x, int n, BD_UNIFORM float w,
                        BD_UNIFORM float u){RNN_BODY} BATCHDIFF
    float RG(rg_pointers)(BD_POINTERS const float *x, int n, BD_UNIFORM float w,
                          BD_UNIFORM float u) {
  RNN_BODY
}
