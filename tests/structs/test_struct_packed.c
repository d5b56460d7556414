/* BD_PACKED and BD_POINTERS arrays of records (docs/abi.md "Structs"):
 * `BD_PACKED const vec3 p[n]` is `const vec3 *p, const size_t *p_off`
 * (example b's records at p + p_off[b], in records), `BD_POINTERS` is
 * `const vec3 *const *p`; shadows alike (`vec3 *d_p` with the same
 * offsets, `vec3 *const *d_p`).
 *   - NAME_batched bit for bit against the strided twin and the scalar
 *     function, every example's records ending right before a PROT_NONE
 *     page (both layouts), n of test_ns;
 *   - NAME_grad: the record shadows bit for bit the strided twin's, the
 *     uniform shadow to rounding (both sum per lane, sorted by length);
 *   - written records (`BD_PACKED vec3 *out`): exactly the members the
 *     function writes change, every other byte of the mapping (gaps,
 *     padding, integer members of shadows) keeps its sentinel;
 *     the written records' shadows (cotangent in, 0 out) likewise. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"
#include "packed_records.h"

typedef struct {
  double x, y, z;
} vec3;
typedef struct {
  float w;
  double v;
  int k;
} mix;

#define LEN_BODY                                                               \
  double s = 0.0;                                                              \
  for (int i = 1; i < n; i++) {                                                \
    double dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y,                 \
           dz = p[i].z - p[i - 1].z;                                           \
    s += sqrt(dx * dx + dy * dy + dz * dz) * w;                                \
  }                                                                            \
  return s;
BATCHDIFF double len_p(int n, BD_PACKED const vec3 p[n], BD_UNIFORM double w){
    LEN_BODY} BATCHDIFF double len_q(int n, BD_POINTERS const vec3 p[n],
                                     BD_UNIFORM double w){LEN_BODY} BATCHDIFF
    double len_s(int n, const vec3 p[n], BD_UNIFORM double w) {
  LEN_BODY
}

#define SC_BODY                                                                \
  for (int i = 0; i < n; i++) {                                                \
    out[i].x = a * m[i].v;                                                     \
    out[i].y = m[i].w * a * m[i].v;                                            \
    if (m[i].k > 0)                                                            \
      out[i].z = (double)m[i].k;                                               \
  }
__attribute__((batch, diff, diff(forward))) void
sc_p(int n, BD_PACKED const mix m[n], BD_PACKED vec3 out[n],
     double a){SC_BODY} BATCHDIFF void sc_q(int n, BD_POINTERS const mix m[n],
                                            BD_POINTERS vec3 out[n], double a) {
  SC_BODY
}
__attribute__((batch, diff, diff(forward))) void sc_s(int n, const mix m[n],
                                                      vec3 out[n], double a) {
  SC_BODY
}

/* ---- len: read-only records -------------------------------------------- */

static void t_len(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_packed_len")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    int *len = gp_alloc(n * sizeof(int) + 1);
    size_t maxl = 1;
    for (size_t b = 0; b < n; b++) {
      len[b] =
          rng_below(&rng, 4) == 0 ? rng_below(&rng, 40) : rng_below(&rng, 6);
      maxl = len[b] > (int)maxl ? (size_t)len[b] : maxl;
    }
    rk_t P, D, DQ;
    rk_make(&P, n, len, sizeof(vec3));
    rk_make(&D, n, len, sizeof(vec3));
    rk_make(&DQ, n, len, sizeof(vec3));
    vec3 *s = gp_alloc(n * maxl * sizeof(vec3) + 1);
    vec3 *ds = gp_alloc(n * maxl * sizeof(vec3) + 1);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++) {
        vec3 v = {gen_d_mod(&rng), gen_d_mod(&rng), gen_d_mod(&rng)};
        ((vec3 *)rk_at(&P, b))[i] = v;
        s[b * maxl + (size_t)i] = v;
        ((vec3 *)rk_at(&D, b))[i] = (vec3){0.5, -1.0, 2.0};
        ((vec3 *)rk_at(&DQ, b))[i] = (vec3){0.5, -1.0, 2.0};
        ds[b * maxl + (size_t)i] = (vec3){0.5, -1.0, 2.0};
      }
    double w = 0.75, dwp = 0.0, dwq = 0.0, dws = 0.0;
    double *rp = gp_alloc(n * 8 + 1), *rq = gp_alloc(n * 8 + 1);
    double *rs = gp_alloc(n * 8 + 1);
    len_p_batched(n, len, (const vec3 *)P.m.map, P.off, w, rp);
    len_q_batched(n, len, (const vec3 *const *)P.ptr, w, rq);
    len_s_batched(n, len, s, (ptrdiff_t)maxl, w, rs);
    for (size_t b = 0; b < n; b++) {
      double want = len_s(len[b], s + b * maxl, w);
      if (memcmp(&rp[b], &want, 8) || memcmp(&rq[b], &want, 8) ||
          memcmp(&rs[b], &want, 8)) {
        print_error("len n=%zu b=%zu: %.17g %.17g want %.17g\n", n, b, rp[b],
                    rq[b], want);
        fail();
      }
    }
    len_p_grad(n, len, (const vec3 *)P.m.map, P.off, w, rp, NULL,
               (vec3 *)D.m.map, &dwp);
    len_q_grad(n, len, (const vec3 *const *)P.ptr, w, rq, NULL,
               (vec3 *const *)DQ.ptr, &dwq);
    len_s_grad(n, len, s, (ptrdiff_t)maxl, w, rs, NULL, ds, (ptrdiff_t)maxl,
               &dws);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++) {
        const vec3 *g = &ds[b * maxl + (size_t)i];
        if (memcmp(&((vec3 *)rk_at(&D, b))[i], g, sizeof *g) ||
            memcmp(&((vec3 *)rk_at(&DQ, b))[i], g, sizeof *g)) {
          print_error("len_grad n=%zu b=%zu record %d differs\n", n, b, i);
          fail();
        }
      }
    if (!close_to(dwp, dws, 1e-13) || !close_to(dwq, dws, 1e-13)) {
      print_error("len_grad n=%zu: d_w %.17g %.17g want %.17g\n", n, dwp, dwq,
                  dws);
      fail();
    }
    rk_check(&P, n, len, 0, sizeof(vec3), "len p");
    rk_check(&D, n, len, 0, sizeof(vec3), "len d_p");
    rk_free(&P);
    rk_free(&D);
    rk_free(&DQ);
    gp_reset();
  }
}

/* ---- sc: records read and written ---------------------------------------- */

static void t_sc(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_packed_sc")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    int *len = gp_alloc(n * sizeof(int) + 1);
    size_t maxl = 1;
    for (size_t b = 0; b < n; b++) {
      len[b] = rng_below(&rng, 7);
      maxl = len[b] > (int)maxl ? (size_t)len[b] : maxl;
    }
    rk_t M, O, OQ, DM, DO;
    rk_make(&M, n, len, sizeof(mix));
    rk_make(&O, n, len, sizeof(vec3));
    rk_make(&OQ, n, len, sizeof(vec3));
    rk_make(&DM, n, len, sizeof(mix));
    rk_make(&DO, n, len, sizeof(vec3));
    mix *ms = gp_alloc(n * maxl * sizeof(mix) + 1);
    vec3 *os = gp_alloc(n * maxl * sizeof(vec3) + 1);
    mix *dms = gp_alloc(n * maxl * sizeof(mix) + 1);
    vec3 *dos = gp_alloc(n * maxl * sizeof(vec3) + 1);
    memset(os, SENT, n * maxl * sizeof(vec3));
    memset(dms, SENT, n * maxl * sizeof(mix));
    double *a = gp_alloc(n * 8 + 1), *da = gp_alloc(n * 8 + 1);
    double *das = gp_alloc(n * 8 + 1);
    for (size_t b = 0; b < n; b++) {
      a[b] = gen_d_mod(&rng);
      da[b] = das[b] = 0.25;
      for (int i = 0; i < len[b]; i++) {
        mix v;
        memset(&v, SENT, sizeof v); /* padding as the mapping's */
        v.w = gen_f_mod(&rng);
        v.v = gen_d_mod(&rng);
        v.k = rng_below(&rng, 5) - 2;
        ((mix *)rk_at(&M, b))[i] = v;
        ms[b * maxl + (size_t)i] = v;
      }
    }
    sc_p_batched(n, len, (const mix *)M.m.map, M.off, (vec3 *)O.m.map, O.off,
                 a);
    sc_q_batched(n, len, (const mix *const *)M.ptr, (vec3 *const *)OQ.ptr, a);
    sc_s_batched(n, len, ms, (ptrdiff_t)maxl, os, (ptrdiff_t)maxl, a);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++) {
        const vec3 *want = &os[b * maxl + (size_t)i];
        if (memcmp(&((vec3 *)rk_at(&O, b))[i], want, sizeof *want) ||
            memcmp(&((vec3 *)rk_at(&OQ, b))[i], want, sizeof *want)) {
          print_error("sc n=%zu b=%zu record %d differs\n", n, b, i);
          fail();
        }
      }
    /* The gradient: cotangents of the written records in, shadows of the
     * read ones incremented (their int member never touched). */
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++) {
        vec3 c = {rng_range(&rng, -1, 1), rng_range(&rng, -1, 1),
                  rng_range(&rng, -1, 1)};
        ((vec3 *)rk_at(&DO, b))[i] = c;
        dos[b * maxl + (size_t)i] = c;
        mix *dm = &((mix *)rk_at(&DM, b))[i], *dm2 = &dms[b * maxl + (size_t)i];
        dm->w = dm2->w = 1.0f;
        dm->v = dm2->v = -1.0;
      }
    sc_p_grad(n, len, (const mix *)M.m.map, M.off, (vec3 *)O.m.map, O.off, a,
              (mix *)DM.m.map, (vec3 *)DO.m.map, da);
    sc_s_grad(n, len, ms, (ptrdiff_t)maxl, os, (ptrdiff_t)maxl, a, dms,
              (ptrdiff_t)maxl, dos, (ptrdiff_t)maxl, das);
    for (size_t b = 0; b < n; b++) {
      if (memcmp(&da[b], &das[b], 8)) {
        print_error("sc_grad n=%zu b=%zu: d_a %.17g want %.17g\n", n, b, da[b],
                    das[b]);
        fail();
      }
      for (int i = 0; i < len[b]; i++)
        if (memcmp(&((mix *)rk_at(&DM, b))[i], &dms[b * maxl + (size_t)i],
                   sizeof(mix)) ||
            memcmp(&((vec3 *)rk_at(&DO, b))[i], &dos[b * maxl + (size_t)i],
                   sizeof(vec3))) {
          print_error("sc_grad n=%zu b=%zu record %d differs\n", n, b, i);
          fail();
        }
    }
    /* NAME_jvp: tangents of the read records in the same layout, those of
     * the written ones written (bit for bit the strided twin's). */
    rk_t TM, TO;
    rk_make(&TM, n, len, sizeof(mix));
    rk_make(&TO, n, len, sizeof(vec3));
    mix *tms = gp_alloc(n * maxl * sizeof(mix) + 1);
    vec3 *tos = gp_alloc(n * maxl * sizeof(vec3) + 1);
    memset(tos, SENT, n * maxl * sizeof(vec3));
    double *ta = gp_alloc(n * 8 + 1);
    for (size_t b = 0; b < n; b++) {
      ta[b] = rng_range(&rng, -1, 1);
      for (int i = 0; i < len[b]; i++) {
        mix *t = &((mix *)rk_at(&TM, b))[i], *t2 = &tms[b * maxl + (size_t)i];
        t->w = t2->w = (float)rng_range(&rng, -1, 1);
        t->v = t2->v = rng_range(&rng, -1, 1);
      }
    }
    sc_p_jvp(n, len, (const mix *)M.m.map, M.off, (vec3 *)O.m.map, O.off, a,
             (const mix *)TM.m.map, (vec3 *)TO.m.map, ta);
    sc_s_jvp(n, len, ms, (ptrdiff_t)maxl, os, (ptrdiff_t)maxl, a, tms,
             (ptrdiff_t)maxl, tos, (ptrdiff_t)maxl, ta);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++)
        if (memcmp(&((vec3 *)rk_at(&TO, b))[i], &tos[b * maxl + (size_t)i],
                   sizeof(vec3))) {
          print_error("sc_jvp n=%zu b=%zu record %d differs\n", n, b, i);
          fail();
        }
    rk_check(&TO, n, len, 0, sizeof(vec3), "sc t_out");
    rk_free(&TM);
    rk_free(&TO);
    rk_check(&M, n, len, 0, sizeof(mix), "sc m");
    rk_check(&O, n, len, 0, sizeof(vec3), "sc out");
    rk_check(&DM, n, len, 0, 16, "sc d_m"); /* w, padding, v: not k */
    rk_check(&DO, n, len, 0, sizeof(vec3), "sc d_out");
    rk_free(&M);
    rk_free(&O);
    rk_free(&OQ);
    rk_free(&DM);
    rk_free(&DO);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_len),
      cmocka_unit_test(t_sc),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
