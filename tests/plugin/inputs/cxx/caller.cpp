// A C++ program that calls NAME_batched / NAME_grad of a C file through the
// plugin's header= output (extern "C"), against the scalar functions of the
// same object. Exit status 0 means every check passed.
#include <batchdiff.h>

#include "model.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

extern "C" double model(double x, double w, int k, bool flip,
                        const double v[3]);
extern "C" float softplus(float x);

static int Failures = 0;

static void check(bool Ok, const char *What, size_t I) {
  if (!Ok && Failures++ < 10)
    std::fprintf(stderr, "FAIL: %s at %zu\n", What, I);
}

static bool sameBits(double A, double B) {
  return std::memcmp(&A, &B, sizeof A) == 0;
}

static void run(size_t N) {
  std::vector<double> X(N), V(3 * N), Ret(N), Ret2(N), Dx(N, 0.0),
      Dv(3 * N, 0.0);
  std::vector<int> K(N);
  bool *Flip = new bool[N];
  for (size_t I = 0; I < N; ++I) {
    X[I] = std::sin(0.37 * (double)I) * 2.0;
    K[I] = (int)(I % 4);
    Flip[I] = I % 3 == 0;
    for (int J = 0; J < 3; ++J)
      V[3 * I + J] = std::cos(0.11 * (double)(I + J));
  }
  const double W = 0.75;
  model_batched(N, X.data(), W, K.data(), Flip, V.data(), 3, Ret.data());
  double Dw = 0.0;
  model_grad(N, X.data(), W, K.data(), Flip, V.data(), 3, Ret2.data(), NULL,
             Dx.data(), &Dw, Dv.data(), 3);
  double DwRef = 0.0;
  for (size_t I = 0; I < N; ++I) {
    const double *Vi = &V[3 * I];
    double R = model(X[I], W, K[I], Flip[I], Vi);
    check(sameBits(Ret[I], R), "model_batched == model", I);
    check(sameBits(Ret2[I], R), "model_grad's ret == model", I);
    // Central differences of the scalar function.
    const double H = 1e-6;
    double G = (model(X[I] + H, W, K[I], Flip[I], Vi) -
                model(X[I] - H, W, K[I], Flip[I], Vi)) /
               (2 * H);
    check(std::fabs(Dx[I] - G) <= 1e-5 * (std::fabs(G) + 1), "d_x", I);
    double Vp[3] = {Vi[0], Vi[1], Vi[2]}, Vm[3] = {Vi[0], Vi[1], Vi[2]};
    Vp[2] += H;
    Vm[2] -= H;
    G = (model(X[I], W, K[I], Flip[I], Vp) - model(X[I], W, K[I], Flip[I], Vm)) /
        (2 * H);
    check(std::fabs(Dv[3 * I + 2] - G) <= 1e-5 * (std::fabs(G) + 1), "d_v",
          I);
    DwRef += (model(X[I], W + H, K[I], Flip[I], Vi) -
              model(X[I], W - H, K[I], Flip[I], Vi)) /
             (2 * H);
  }
  check(std::fabs(Dw - DwRef) <= 1e-5 * (std::fabs(DwRef) + (double)N),
        "d_w (sum over the batch)", N);
  delete[] Flip;

  std::vector<float> Xf(N), Rf(N), Df(N, 0.0f);
  for (size_t I = 0; I < N; ++I)
    Xf[I] = (float)X[I] * 15.0f;
  softplus_batched(N, Xf.data(), Rf.data());
  softplus_grad(N, Xf.data(), NULL, NULL, Df.data());
  for (size_t I = 0; I < N; ++I) {
    float R = softplus(Xf[I]);
    // Vector math: within a few ULP of libm (docs/runtime.md).
    check(std::fabs(R - Rf[I]) <= 4e-7f * std::fabs(R) + 1e-30f,
          "softplus_batched", I);
    float E = Xf[I] > 20.0f ? 1.0f : 1.0f / (1.0f + std::exp(-Xf[I]));
    check(std::fabs(Df[I] - E) <= 1e-5f, "softplus_grad", I);
  }
}

int main() {
  // The runtime's thread control, declared by <batchdiff.h> in C++ too.
  bd_set_num_threads(2);
  if (bd_get_num_threads() != 2)
    check(false, "bd_get_num_threads", 0);
  const size_t Ns[] = {0, 1, 3, 4, 5, 9, 100, 40000};
  for (size_t N : Ns)
    run(N);
  bd_set_num_threads(0);
  if (Failures)
    std::fprintf(stderr, "%d failure(s)\n", Failures);
  return Failures ? 1 : 0;
}
