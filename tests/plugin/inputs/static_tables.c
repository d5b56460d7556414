/* Static tables that are not const, read by unannotated functions at
 * constant indices (LLVM folds them once GlobalOpt makes the tables
 * constant: nothing writes them) and by annotated ones at varying indices
 * (gathers). The unannotated functions must compile to the same code with
 * and without the plugin: a gather instruction taking a table's address
 * kept GlobalOpt from making it constant (tests/robust seed 30050). */
static double T1[4] = {1.0, 2.0, 3.0, 4.0};
static float F1[5] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f};
static double T2[3][2] = {{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}};
static struct seg { double lo, k; } S[3] = {{0.0, 1.0}, {1.0, 2.0}, {2.0, 3.0}};
static long L1[3] = {7, 8, 9};

double plain_t1(void) { return T1[2] * T1[1]; }
float plain_f1(float x) { return x * F1[3] + F1[1]; }
double plain_t2(void) { return T2[2][1] - T2[1][0]; }
double plain_s(double x) { return S[1].lo + x * S[2].k; }
long plain_l1(void) { return L1[0] * L1[2]; }

__attribute__((batch, diff)) double tab1(double x, int i) {
  return x * T1[i & 3] + T2[i % 3][1] + S[i % 3].k * x + (double)L1[i % 3];
}
__attribute__((batch)) float tabf(float x, int i) { return x * F1[i % 5]; }
