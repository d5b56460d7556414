/* AoS <-> SoA transposes in registers (batchdiff/aos.h) bit for bit:
 * bd_aos_load<M>_<T> (M = 2 ... 8) gives lane j of member m = p[j * M + m] for
 * random bit patterns (NaN payloads, -0.0, subnormals included),
 * bd_aos_store<M>_<T> writes them back unchanged; both touch exactly the M * W
 * elements: the records end right at a guard page and the element before them
 * (and after a store, everything else of the page) keeps its sentinel. Built
 * for each width (see CMakeLists.txt). */
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

#define T3(T)                                                                  \
  cmocka_unit_test(test_aos2_##T), cmocka_unit_test(test_aos3_##T),            \
      cmocka_unit_test(test_aos4_##T), cmocka_unit_test(test_aos5_##T),        \
      cmocka_unit_test(test_aos6_##T), cmocka_unit_test(test_aos7_##T),        \
      cmocka_unit_test(test_aos8_##T)
int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T3(f32n), T3(i32n), T3(u32n), T3(f32d), T3(i32d),
      T3(u32d), T3(f64d), T3(i64d), T3(u64d),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
