/* Models of bench_records (docs/performance.md, "Records"): functions of
 * vec3 records (and records of 6 doubles, 8 floats) passed as the user
 * stores them (AoS). Compiled twice: as is
 * (full groups of records transposed in registers) and with
 * -fplugin-arg-batchdiff-dense-records=0 and RC_SFX=_members (member by
 * member through lane buffers, as before), so bench_records compares the
 * two in one process; plus the scalar loops over the records. */
#include <batchdiff.h>

#include <math.h>
#include <stddef.h>

#ifndef RC_SFX
#define RC_SFX
#define RC_LOOPS 1
#endif
#define RC_CAT2(a, b) a##b
#define RC_CAT(a, b) RC_CAT2(a, b)
#define RC(name) RC_CAT(name, RC_SFX)

typedef struct {
  double x, y, z;
} rc_vec3;
typedef struct {
  float x, y, z;
} rc_vec3f;
/* 5..8 members (issue 11: M vector loads and permutes too). */
typedef struct {
  double x, y, z, vx, vy, vz;
} rc_state6;
typedef struct {
  float w[8];
} rc_f8;

BATCHDIFF double RC(rc_dist)(rc_vec3 a, BD_UNIFORM rc_vec3 c) {
  double dx = a.x - c.x, dy = a.y - c.y, dz = a.z - c.z;
  return sqrt(dx * dx + dy * dy + dz * dz);
}

__attribute__((batch)) rc_vec3 RC(rc_normalize)(rc_vec3 a) {
  double r = 1.0 / sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
  rc_vec3 o = {a.x * r, a.y * r, a.z * r};
  return o;
}

BATCHDIFF float RC(rc_distf)(rc_vec3f a, BD_UNIFORM rc_vec3f c) {
  float dx = a.x - c.x, dy = a.y - c.y, dz = a.z - c.z;
  return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* Kinetic plus potential energy of a particle state (6 doubles). */
BATCHDIFF double RC(rc_energy6)(rc_state6 s, BD_UNIFORM double g) {
  return 0.5 * (s.vx * s.vx + s.vy * s.vy + s.vz * s.vz) + g * s.z;
}

/* One explicit Euler step (6 doubles in, 6 out). */
__attribute__((batch)) rc_state6 RC(rc_step6)(rc_state6 s,
                                              BD_UNIFORM double dt) {
  rc_state6 o = {s.x + dt * s.vx, s.y + dt * s.vy, s.z + dt * s.vz, s.vx, s.vy,
                 s.vz - dt * 9.81};
  return o;
}

/* A dot product with a uniform weight vector (8 floats). */
BATCHDIFF float RC(rc_dot8f)(rc_f8 a, BD_UNIFORM rc_f8 c) {
  float s = 0.0f;
  for (int i = 0; i < 8; i++)
    s += a.w[i] * c.w[i];
  return s;
}

#ifdef RC_LOOPS
/* The scalar loops, in the models' file: clang may inline and vectorize. */
void rc_dist_loop(size_t n, const rc_vec3 *a, rc_vec3 c, double *ret) {
  for (size_t b = 0; b < n; b++)
    ret[b] = rc_dist(a[b], c);
}
void rc_normalize_loop(size_t n, const rc_vec3 *a, rc_vec3 *ret) {
  for (size_t b = 0; b < n; b++)
    ret[b] = rc_normalize(a[b]);
}
void rc_distf_loop(size_t n, const rc_vec3f *a, rc_vec3f c, float *ret) {
  for (size_t b = 0; b < n; b++)
    ret[b] = rc_distf(a[b], c);
}
void rc_energy6_loop(size_t n, const rc_state6 *a, double g, double *ret) {
  for (size_t b = 0; b < n; b++)
    ret[b] = rc_energy6(a[b], g);
}
void rc_step6_loop(size_t n, const rc_state6 *a, double dt, rc_state6 *ret) {
  for (size_t b = 0; b < n; b++)
    ret[b] = rc_step6(a[b], dt);
}
void rc_dot8f_loop(size_t n, const rc_f8 *a, rc_f8 c, float *ret) {
  for (size_t b = 0; b < n; b++)
    ret[b] = rc_dot8f(a[b], c);
}
#endif
