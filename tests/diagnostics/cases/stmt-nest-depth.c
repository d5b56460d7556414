/* Code nested 50,000 statements and expressions deep, counting those of
 * inlined helpers: the lowering and the passes after it recurse once per
 * level (a chain of 10,000 helpers, or 100 helpers of 500 nested ifs each
 * inlined in one another, overflowed the stack). Reported where the chain
 * of helpers below (made by the macros, each calling the one before it)
 * reaches the limit, here in its innermost helper g. */
#define H(a, b) static inline double b(double x) { return a(x) * 0.5 + x; }
#define D10(p, n) H(p##0, p##1) H(p##1, p##2) H(p##2, p##3) H(p##3, p##4) \
  H(p##4, p##5) H(p##5, p##6) H(p##6, p##7) H(p##7, p##8) H(p##8, p##9)  \
  H(p##9, n##0)
#define D100(p, n) D10(p##0, p##1) D10(p##1, p##2) D10(p##2, p##3) \
  D10(p##3, p##4) D10(p##4, p##5) D10(p##5, p##6) D10(p##6, p##7)     \
  D10(p##7, p##8) D10(p##8, p##9) D10(p##9, n##0)
#define D1000(p, n) D100(p##0, p##1) D100(p##1, p##2) D100(p##2, p##3) \
  D100(p##3, p##4) D100(p##4, p##5) D100(p##5, p##6) D100(p##6, p##7)     \
  D100(p##7, p##8) D100(p##8, p##9) D100(p##9, n##0)
static inline double g(double x) {
  return x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x + (x))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
  // CHECK: stmt-nest-depth.c:[[@LINE-1]]:195: error: code nested 50000 statements and expressions deep (counting those of inlined helpers) is not supported in a batch/diff function; nest statements, expressions and calls of helpers less deeply
}
H(g, k0000)
D1000(k0, k1)
D1000(k1, k2)
D1000(k2, k3)
D1000(k3, k4)
D1000(k4, k5)
D1000(k5, k6)
D1000(k6, k7)
D1000(k7, k8)
D1000(k8, k9)
D100(k90, k91)
D100(k91, k92)
D100(k92, k93)
D100(k93, k94)
D100(k94, k95)
D100(k95, k96)
D100(k96, k97)
D100(k97, k98)
D100(k98, k99)
D10(k990, k991)
D10(k991, k992)
D10(k992, k993)
D10(k993, k994)
D10(k994, k995)
D10(k995, k996)
D10(k996, k997)
D10(k997, k998)
D10(k998, k999)
__attribute__((batch)) double f(double x) { return k9990(x); }
