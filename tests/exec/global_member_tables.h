/* An extern const struct another file defines (global_member_tables_other.c)
 * with arrays of structs as members, as musl's log reads
 * `__log_data.tab[i].invc` of `extern const struct log_data {double ln2hi,
 * ln2lo; double poly[5]; ...; struct {double invc, logc;} tab[128];}
 * __log_data`. */
#ifndef BATCHDIFF_TESTS_GLOBAL_MEMBER_TABLES_H
#define BATCHDIFF_TESTS_GLOBAL_MEMBER_TABLES_H

#define GM_TABLE_BITS 4
#define GM_N (1 << GM_TABLE_BITS)

struct gm_entry {
  double invc, logc;
};

extern const struct gm_log_data {
  double ln2;
  double poly[4]; /* r - r^2/2 + r^3/3 - r^4/4 + r^5/5 */
  struct {
    double invc, logc; /* c = 1 + (i + 1/2)/16: 1/c, log(c) */
  } tab[GM_N];
  struct {
    float a;
    int k;
    double c;
  } mix[8]; /* a = i / 4, k = 3 i - 7, c = 1 / (i + 1) */
  struct {
    short s;
    struct gm_entry e[3]; /* e[j] = {j + 1, -j} */
  } nest;
  struct gm_entry named[4]; /* {i + 1, 1 / (i + 1)} */
} gm_log_data;

#endif
