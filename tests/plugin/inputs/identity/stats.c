/* Running statistics and a small linear regression: loops, math calls,
 * structs, static helpers, function pointers. No batchdiff annotations. */
#include <math.h>
#include <stddef.h>

struct running_stats {
  size_t n;
  double mean;
  double m2;
  double min, max;
};

static inline double square(double x) { return x * x; }

void stats_init(struct running_stats *s) {
  s->n = 0;
  s->mean = s->m2 = 0.0;
  s->min = INFINITY;
  s->max = -INFINITY;
}

void stats_push(struct running_stats *s, double x) {
  double delta = x - s->mean;
  s->n++;
  s->mean += delta / (double)s->n;
  s->m2 += delta * (x - s->mean);
  if (x < s->min)
    s->min = x;
  if (x > s->max)
    s->max = x;
}

double stats_stddev(const struct running_stats *s) {
  return s->n > 1 ? sqrt(s->m2 / (double)(s->n - 1)) : 0.0;
}

int linear_fit(const float *x, const float *y, size_t n, float *slope,
               float *intercept) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; i++) {
    sx += x[i];
    sy += y[i];
    sxx += square(x[i]);
    sxy += (double)x[i] * y[i];
  }
  double det = (double)n * sxx - sx * sx;
  if (fabs(det) < 1e-12)
    return -1;
  *slope = (float)(((double)n * sxy - sx * sy) / det);
  *intercept = (float)((sy - *slope * sx) / (double)n);
  return 0;
}

typedef float (*unary_fn)(float);

void map_inplace(float *v, size_t n, unary_fn f) {
  for (size_t i = 0; i < n; i++)
    v[i] = f(v[i]);
}

float softplus(float x) { return x > 20.0f ? x : log1pf(expf(x)); }
