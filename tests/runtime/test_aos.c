/* AoS <-> SoA transposes in registers (batchdiff/aos.h) bit for bit:
 * bd_aos_load<M>_<T> (M = 2 ... 8) gives lane j of member m = p[j * M + m] for
 * random bit patterns (NaN payloads, -0.0, subnormals included),
 * bd_aos_store<M>_<T> writes them back unchanged; both touch exactly the M * W
 * elements: the records end right at a guard page and the element before them
 * (and after a store, everything else of the page) keeps its sentinel.
 * bd_rows_load_<T> (ROWS_TEST below) likewise. Built for each width (see
 * CMakeLists.txt). */
#include <batchdiff/aos.h>

#include "test_util.h"

#include "../common/test_filter.h"

#define ROUNDS 64

/* One type T (elements E, W lanes), M members. */
#define AOS_TEST(T, E, W, M)                                                   \
  static void test_aos##M##_##T(void **state) {                                \
    (void)state;                                                               \
    size_t page = gp_page();                                                   \
    /* data right before a PROT_NONE page */                                   \
    unsigned char *guard = (unsigned char *)gp_map(page) + page;               \
    E *p = (E *)(guard - sizeof(E) * (M) * (W));                               \
    uint64_t seed = 0x5eed0000u + (M)*131u + sizeof(E) * 7u + (W);             \
    for (int r = 0; r < ROUNDS; r++) {                                         \
      memset(guard - page, 0xa5, page);                                        \
      E want[(M) * (W)];                                                       \
      for (int k = 0; k < (M) * (W); k++) {                                    \
        uint64_t b = tu_next(&seed);                                           \
        if (r == 1)                                                            \
          b = k % 2 ? ~(uint64_t)0 : (uint64_t)1 << (sizeof(E) * 8 - 1);       \
        memcpy(&want[k], &b, sizeof(E));                                       \
      }                                                                        \
      memcpy(p, want, sizeof want);                                            \
      bd_##T v[8];                                                             \
      AOS_LOAD##M(T, p, v);                                                    \
      for (int m = 0; m < (M); m++)                                            \
        for (int j = 0; j < (W); j++) {                                        \
          E got = v[m][j];                                                     \
          tu_check_bits(&want[j * (M) + m], &got, sizeof(E),                   \
                        "aos_load" #M "_" #T, (size_t)(j * (M) + m));          \
        }                                                                      \
      /* A store into sentinels: exactly the records change. */                \
      memset(guard - page, 0xa5, page);                                        \
      AOS_STORE##M(T, p, v);                                                   \
      tu_check_bits(want, p, sizeof want, "aos_store" #M "_" #T, 0);           \
      for (unsigned char *q = guard - page; q < (unsigned char *)p; q++)       \
        if (*q != 0xa5)                                                        \
          fail_msg("aos_store" #M "_" #T ": byte %td before the records",      \
                   (unsigned char *)p - q);                                    \
    }                                                                          \
    gp_unmap(guard - page, page);                                              \
  }
#define AOS_LOAD2(T, p, v) bd_aos_load2_##T(p, &v[0], &v[1])
#define AOS_LOAD3(T, p, v) bd_aos_load3_##T(p, &v[0], &v[1], &v[2])
#define AOS_LOAD4(T, p, v) bd_aos_load4_##T(p, &v[0], &v[1], &v[2], &v[3])
#define AOS_STORE2(T, p, v) bd_aos_store2_##T(p, v[0], v[1])
#define AOS_STORE3(T, p, v) bd_aos_store3_##T(p, v[0], v[1], v[2])
#define AOS_STORE4(T, p, v) bd_aos_store4_##T(p, v[0], v[1], v[2], v[3])
#define AOS_LOAD5(T, p, v)                                                     \
  bd_aos_load5_##T(p, &v[0], &v[1], &v[2], &v[3], &v[4])
#define AOS_LOAD6(T, p, v)                                                     \
  bd_aos_load6_##T(p, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5])
#define AOS_LOAD7(T, p, v)                                                     \
  bd_aos_load7_##T(p, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6])
#define AOS_LOAD8(T, p, v)                                                     \
  bd_aos_load8_##T(p, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7])
#define AOS_STORE5(T, p, v) bd_aos_store5_##T(p, v[0], v[1], v[2], v[3], v[4])
#define AOS_STORE6(T, p, v)                                                    \
  bd_aos_store6_##T(p, v[0], v[1], v[2], v[3], v[4], v[5])
#define AOS_STORE7(T, p, v)                                                    \
  bd_aos_store7_##T(p, v[0], v[1], v[2], v[3], v[4], v[5], v[6])
#define AOS_STORE8(T, p, v)                                                    \
  bd_aos_store8_##T(p, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])

#define AOS_TYPE(T, E, W)                                                      \
  AOS_TEST(T, E, W, 2)                                                         \
  AOS_TEST(T, E, W, 3) AOS_TEST(T, E, W, 4) AOS_TEST(T, E, W, 5)               \
      AOS_TEST(T, E, W, 6) AOS_TEST(T, E, W, 7) AOS_TEST(T, E, W, 8)
AOS_TYPE(f32n, float, BD_WN)
AOS_TYPE(i32n, int32_t, BD_WN)
AOS_TYPE(u32n, uint32_t, BD_WN)
AOS_TYPE(f32d, float, BD_WD)
AOS_TYPE(i32d, int32_t, BD_WD)
AOS_TYPE(u32d, uint32_t, BD_WD)
AOS_TYPE(f64d, double, BD_WD)
AOS_TYPE(i64d, int64_t, BD_WD)
AOS_TYPE(u64d, uint64_t, BD_WD)

/* bd_rows_load_<T>: len 1 ... 3W + 1 elements of W rows at strides len,
 * len + 3, 0 and -(len + 1), bit for bit; the row that ends highest ends
 * right at a guard page, so a read past any row's len elements faults.
 * bd_rows_store_<T> (rows apart) writes them back into sentinels: exactly
 * those elements change. */
#define ROWS_TEST(T, E, W)                                                     \
  static void test_rows_##T(void **state) {                                    \
    (void)state;                                                               \
    size_t page = gp_page(), bytes = 4 * page;                                 \
    unsigned char *guard = (unsigned char *)gp_map(bytes) + bytes;             \
    uint64_t seed = 0x7035u + sizeof(E) * 7u + (W);                            \
    for (int len = 1; len <= 3 * (W) + 1; len++)                               \
      for (int k = 0; k < 4; k++) {                                            \
        ptrdiff_t st = k == 0   ? len                                          \
                       : k == 1 ? len + 3                                      \
                       : k == 2 ? 0                                            \
                                : -len - 1;                                    \
        /* the highest element: row W-1's last (st >= 0), row 0's (st < 0) */  \
        ptrdiff_t hi = (st >= 0 ? ((W)-1) * st : 0) + len;                     \
        E *p = (E *)(guard - sizeof(E) * (size_t)hi);                          \
        ptrdiff_t lo = st >= 0 ? 0 : ((W)-1) * st;                             \
        for (ptrdiff_t i = lo; i < hi; i++) {                                  \
          uint64_t b = tu_next(&seed);                                         \
          memcpy(&p[i], &b, sizeof(E));                                        \
        }                                                                      \
        bd_##T out[2 * (3 * (W) + 1)];                                         \
        bd_rows_load_##T(p, st, len, out + 1, 2);                              \
        for (int t = 0; t < len; t++)                                          \
          for (int j = 0; j < (W); j++) {                                      \
            E got = out[1 + 2 * t][j];                                         \
            tu_check_bits(&p[j * st + t], &got, sizeof(E), "rows_load_" #T,    \
                          (size_t)(t * (W) + j));                              \
          }                                                                    \
        if (st > -len && st < len)                                             \
          continue; /* rows overlap: no store */                               \
        /* A store into sentinels: exactly the rows' elements change. */       \
        memset(guard - bytes, 0xa5, bytes);                                    \
        bd_rows_store_##T(p, st, len, out + 1, 2);                             \
        for (int t = 0; t < len; t++)                                          \
          for (int j = 0; j < (W); j++) {                                      \
            E want = out[1 + 2 * t][j];                                        \
            tu_check_bits(&want, &p[j * st + t], sizeof(E), "rows_store_" #T,  \
                          (size_t)(t * (W) + j));                              \
            memset(&p[j * st + t], 0xa5, sizeof(E));                           \
          }                                                                    \
        for (unsigned char *q = guard - bytes; q < guard; q++)                 \
          if (*q != 0xa5)                                                      \
            fail_msg("rows_store_" #T ": byte %td of the page changed",        \
                     q - (guard - bytes));                                     \
      }                                                                        \
    gp_unmap(guard - bytes, bytes);                                            \
  }
ROWS_TEST(f32n, float, BD_WN)
ROWS_TEST(i32n, int32_t, BD_WN)
ROWS_TEST(u32n, uint32_t, BD_WN)
ROWS_TEST(f32d, float, BD_WD)
ROWS_TEST(i32d, int32_t, BD_WD)
ROWS_TEST(u32d, uint32_t, BD_WD)
ROWS_TEST(f64d, double, BD_WD)
ROWS_TEST(i64d, int64_t, BD_WD)
ROWS_TEST(u64d, uint64_t, BD_WD)

#define T3(T)                                                                  \
  cmocka_unit_test(test_aos2_##T), cmocka_unit_test(test_aos3_##T),            \
      cmocka_unit_test(test_aos4_##T), cmocka_unit_test(test_aos5_##T),        \
      cmocka_unit_test(test_aos6_##T), cmocka_unit_test(test_aos7_##T),        \
      cmocka_unit_test(test_aos8_##T)
int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T3(f32n),
      T3(i32n),
      T3(u32n),
      T3(f32d),
      T3(i32d),
      T3(u32d),
      T3(f64d),
      T3(i64d),
      T3(u64d),
      cmocka_unit_test(test_rows_f32n),
      cmocka_unit_test(test_rows_i32n),
      cmocka_unit_test(test_rows_u32n),
      cmocka_unit_test(test_rows_f32d),
      cmocka_unit_test(test_rows_i32d),
      cmocka_unit_test(test_rows_u32d),
      cmocka_unit_test(test_rows_f64d),
      cmocka_unit_test(test_rows_i64d),
      cmocka_unit_test(test_rows_u64d),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
