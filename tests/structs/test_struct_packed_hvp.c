/* BD_PACKED and BD_POINTERS arrays of records in NAME_hvp (docs/abi.md
 * "Structs"): tangents `t_p` and H·v shadows `h_p` are records in the
 * primal's layout (the same offsets; one pointer per example), as the
 * shadows `d_p` of NAME_grad.
 *   - energy (read-only records, a uniform weight): ret, d_p, h_p, d_w and
 *     h_w bit for bit the strided twin's, in both layouts; ret and the
 *     gradient bit for bit NAME_grad's; h_p and h_w against central
 *     differences of NAME_grad along (t_p, t_w);
 *   - scatter (records of mixed float/double/int members read, vec3
 *     records written): out, t_out, d_m, d_out, d_a, h_m, h_out, h_a bit
 *     for bit the strided twin's; h_m and h_a against central differences
 *     of NAME_grad (whose d_out are the cotangent seeds);
 *   - every example's records end right before three PROT_NONE pages (the
 *     records, their tangents, shadows and H·v shadows alike), and every
 *     other byte of those mappings keeps its sentinel: integer members and
 *     padding of shadow records, gaps between examples. */
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

#define E_BODY                                                                 \
  double s = 0.0;                                                              \
  for (int i = 1; i < n; i++) {                                                \
    double dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y,                 \
           dz = p[i].z - p[i - 1].z;                                           \
    double r = sqrt(dx * dx + dy * dy + dz * dz + 0.5);                        \
    s += w * (r - 1.0) * (r - 1.0) + p[i].x * p[i - 1].y * p[i].z;             \
  }                                                                            \
  return s;
#define HVP __attribute__((batch, diff, diff(hvp)))
HVP double e_p(int n, BD_PACKED const vec3 p[n], BD_UNIFORM double w){
    E_BODY} HVP double e_q(int n, BD_POINTERS const vec3 p[n],
                           BD_UNIFORM double w){E_BODY} HVP
    double e_s(int n, const vec3 p[n], BD_UNIFORM double w){E_BODY}

#define SC_BODY                                                                \
  for (int i = 0; i < n; i++) {                                                \
    out[i].x = a * m[i].v * m[i].v;                                            \
    out[i].y = sin(m[i].w * a) * m[i].v;                                       \
    if (m[i].k > 0)                                                            \
      out[i].z = (double)m[i].k * m[i].v * a * a;                              \
  }
HVP void sc_p(int n, BD_PACKED const mix m[n], BD_PACKED vec3 out[n], double a){
    SC_BODY} HVP void sc_q(int n, BD_POINTERS const mix m[n],
                           BD_POINTERS vec3 out[n], double a){SC_BODY} HVP
    void sc_s(int n, const mix m[n], vec3 out[n], double a) {
  SC_BODY
}

static double *comp(vec3 *v, int j) {
  return j == 0 ? &v->x : j == 1 ? &v->y : &v->z;
}
/* Example b's record i of a guarded mapping. */
#define AT(r, T, b, i) (((T *)rk_at(&(r), b))[i])

/* Lengths 0..6, and some long ones. */
static int *lengths(rng_t *rng, size_t n, size_t *maxl) {
  int *len = gp_alloc(n * sizeof(int) + 1);
  *maxl = 1;
  for (size_t b = 0; b < n; b++) {
    len[b] = rng_below(rng, 5) == 0 ? rng_below(rng, 30) : rng_below(rng, 7);
    *maxl = len[b] > (int)*maxl ? (size_t)len[b] : *maxl;
  }
  return len;
}

/* ---- energy: read-only records, a uniform weight ------------------------ */

static void t_energy(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_packed_hvp_energy")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni], maxl;
    int *len = lengths(&rng, n, &maxl);
    rk_t P, T, D, H, DQ, HQ, Pp, Pm, Gp, Gm, G0;
    rk_t *all[] = {&P, &T, &D, &H, &DQ, &HQ, &Pp, &Pm, &Gp, &Gm, &G0};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
      rk_make(all[k], n, len, sizeof(vec3));
    size_t ns = n * maxl;
    vec3 *s = gp_alloc(ns * sizeof(vec3) + 1),
         *ts = gp_alloc(ns * sizeof(vec3) + 1);
    vec3 *ds = gp_alloc(ns * sizeof(vec3) + 1),
         *hs = gp_alloc(ns * sizeof(vec3) + 1);
    vec3 *h0 = gp_alloc(ns * sizeof(vec3) + 1);
    double *seed = gp_alloc(n * 8 + 1);
    double h = 1e-6;
    for (size_t b = 0; b < n; b++) {
      seed[b] = rng_range(&rng, 0.5, 2);
      for (int i = 0; i < len[b]; i++) {
        vec3 v, t, d, hv;
        for (int j = 0; j < 3; j++) {
          *comp(&v, j) = rng_range(&rng, -2, 2);
          *comp(&t, j) = rng_range(&rng, -1, 1);
          *comp(&d, j) = rng_range(&rng, -1, 1); /* += onto these */
          *comp(&hv, j) = rng_range(&rng, -1, 1);
        }
        size_t at = b * maxl + (size_t)i;
        AT(P, vec3, b, i) = s[at] = v;
        AT(T, vec3, b, i) = ts[at] = t;
        AT(D, vec3, b, i) = AT(DQ, vec3, b, i) = ds[at] = d;
        AT(G0, vec3, b, i) = d;
        AT(H, vec3, b, i) = AT(HQ, vec3, b, i) = hs[at] = h0[at] = hv;
        AT(Gp, vec3, b, i) = AT(Gm, vec3, b, i) = (vec3){0, 0, 0};
        for (int j = 0; j < 3; j++) {
          *comp(&AT(Pp, vec3, b, i), j) = *comp(&v, j) + h * *comp(&t, j);
          *comp(&AT(Pm, vec3, b, i), j) = *comp(&v, j) - h * *comp(&t, j);
        }
      }
    }
    double w = 0.75, tw = -0.5;
    double rs_w[2] = {0, 0}, rp_w[2] = {0, 0}, rq_w[2] = {0, 0};
    double *rs = gp_alloc(n * 8 + 1), *rp = gp_alloc(n * 8 + 1);
    double *rq = gp_alloc(n * 8 + 1);
    /* rX_w: {d_w, h_w} */
    e_s_hvp(n, len, s, (ptrdiff_t)maxl, w, ts, (ptrdiff_t)maxl, &tw, rs, seed,
            ds, (ptrdiff_t)maxl, &rs_w[0], hs, (ptrdiff_t)maxl, &rs_w[1]);
    e_p_hvp(n, len, (const vec3 *)P.m.map, P.off, w, (const vec3 *)T.m.map, &tw,
            rp, seed, (vec3 *)D.m.map, &rp_w[0], (vec3 *)H.m.map, &rp_w[1]);
    e_q_hvp(n, len, (const vec3 *const *)P.ptr, w, (const vec3 *const *)T.ptr,
            &tw, rq, seed, (vec3 *const *)DQ.ptr, &rq_w[0],
            (vec3 *const *)HQ.ptr, &rq_w[1]);
    for (size_t b = 0; b < n; b++) {
      double want = e_s(len[b], s + b * maxl, w);
      if (memcmp(&rs[b], &want, 8) || memcmp(&rp[b], &want, 8) ||
          memcmp(&rq[b], &want, 8)) {
        print_error("energy n=%zu b=%zu: ret %.17g %.17g %.17g want %.17g\n", n,
                    b, rs[b], rp[b], rq[b], want);
        fail();
      }
      for (int i = 0; i < len[b]; i++) {
        size_t at = b * maxl + (size_t)i;
        if (memcmp(&AT(D, vec3, b, i), &ds[at], 24) ||
            memcmp(&AT(DQ, vec3, b, i), &ds[at], 24) ||
            memcmp(&AT(H, vec3, b, i), &hs[at], 24) ||
            memcmp(&AT(HQ, vec3, b, i), &hs[at], 24)) {
          print_error("energy_hvp n=%zu b=%zu record %d: d_p or h_p differs "
                      "from the strided twin's\n",
                      n, b, i);
          fail();
        }
      }
    }
    if (memcmp(rp_w, rs_w, 16) || memcmp(rq_w, rs_w, 16)) {
      print_error("energy_hvp n=%zu: d_w/h_w %.17g/%.17g %.17g/%.17g, strided "
                  "%.17g/%.17g\n",
                  n, rp_w[0], rp_w[1], rq_w[0], rq_w[1], rs_w[0], rs_w[1]);
      fail();
    }
    /* NAME_grad from the same d_p: the same bits. Central differences of
     * NAME_grad (from 0) at p +- h t_p, w +- h t_w: the H·v added to h_p. */
    double g0w = 0, gpw = 0, gmw = 0;
    e_p_grad(n, len, (const vec3 *)P.m.map, P.off, w, rp, seed,
             (vec3 *)G0.m.map, &g0w);
    e_p_grad(n, len, (const vec3 *)Pp.m.map, Pp.off, w + h * tw, rp, seed,
             (vec3 *)Gp.m.map, &gpw);
    e_p_grad(n, len, (const vec3 *)Pm.m.map, Pm.off, w - h * tw, rp, seed,
             (vec3 *)Gm.m.map, &gmw);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++) {
        size_t at = b * maxl + (size_t)i;
        for (int j = 0; j < 3; j++) {
          double g = *comp(&AT(G0, vec3, b, i), j);
          double d = *comp(&AT(D, vec3, b, i), j);
          double fd =
              (*comp(&AT(Gp, vec3, b, i), j) - *comp(&AT(Gm, vec3, b, i), j)) /
              (2 * h);
          double hv = *comp(&AT(H, vec3, b, i), j) - *comp(&h0[at], j);
          if (memcmp(&g, &d, 8) || !close_to(hv, fd, 1e-6)) {
            print_error("energy_hvp n=%zu b=%zu record %d member %d: d %.17g "
                        "grad %.17g, H.v %.17g fd %.17g\n",
                        n, b, i, j, d, g, hv, fd);
            fail();
          }
        }
      }
    if (memcmp(&g0w, &rs_w[0], 8) ||
        !close_to(rs_w[1], (gpw - gmw) / (2 * h), 1e-6)) {
      print_error("energy_hvp n=%zu: d_w %.17g grad %.17g, h_w %.17g fd "
                  "%.17g\n",
                  n, rs_w[0], g0w, rs_w[1], (gpw - gmw) / (2 * h));
      fail();
    }
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
      rk_check(all[k], n, len, 0, sizeof(vec3), "energy");
      rk_free(all[k]);
    }
    gp_reset();
  }
}

/* ---- scatter: mixed records read, vec3 records written ------------------ */

/* Members of a mix record by index: 0 w (float), 1 v. */
static double mget(const mix *r, int j) { return j ? r->v : (double)r->w; }

/* A step whose products with the tangents below are exact in float (w's
 * tangents are multiples of 1/8, w a multiple of 2^-10), so w +- h t_w is
 * the intended point. */
#define SH 0x1p-12

static void t_scatter(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_packed_hvp_scatter")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni], maxl;
    int *len = lengths(&rng, n, &maxl);
    /* packed (1) and pointers (2): outputs, tangents and shadows */
    rk_t M, TM, Mp, Mm, DM1, HM1, DM2, HM2, G0, Gp, Gm;
    rk_t O1, TO1, DO1, HO1, O2, TO2, DO2, HO2, GO;
    rk_t *mixes[] = {&M, &TM, &Mp, &Mm, &DM1, &HM1, &DM2, &HM2, &G0, &Gp, &Gm};
    rk_t *vecs[] = {&O1, &TO1, &DO1, &HO1, &O2, &TO2, &DO2, &HO2, &GO};
    for (size_t k = 0; k < sizeof mixes / sizeof mixes[0]; k++)
      rk_make(mixes[k], n, len, sizeof(mix));
    for (size_t k = 0; k < sizeof vecs / sizeof vecs[0]; k++)
      rk_make(vecs[k], n, len, sizeof(vec3));
    size_t ns = n * maxl;
    mix *ms = gp_alloc(ns * sizeof(mix) + 1),
        *tms = gp_alloc(ns * sizeof(mix) + 1);
    mix *dms = gp_alloc(ns * sizeof(mix) + 1),
        *hms = gp_alloc(ns * sizeof(mix) + 1);
    mix *h0 = gp_alloc(ns * sizeof(mix) + 1);
    vec3 *os = gp_alloc(ns * sizeof(vec3) + 1),
         *tos = gp_alloc(ns * sizeof(vec3) + 1);
    vec3 *dos = gp_alloc(ns * sizeof(vec3) + 1),
         *hos = gp_alloc(ns * sizeof(vec3) + 1);
    vec3 *cot = gp_alloc(ns * sizeof(vec3) + 1);
    memset(ms, SENT, ns * sizeof(mix));
    memset(tms, SENT, ns * sizeof(mix));
    memset(dms, SENT, ns * sizeof(mix));
    memset(hms, SENT, ns * sizeof(mix));
    memset(os, SENT, ns * sizeof(vec3));
    memset(tos, SENT, ns * sizeof(vec3));
    double *a = gp_alloc(n * 8 + 1), *ta = gp_alloc(n * 8 + 1);
    double *ap = gp_alloc(n * 8 + 1), *am = gp_alloc(n * 8 + 1);
    double *da[3], *ha[3], *ga[3];
    for (int k = 0; k < 3; k++) {
      da[k] = gp_alloc(n * 8 + 1);
      ha[k] = gp_alloc(n * 8 + 1);
      ga[k] = gp_alloc(n * 8 + 1);
    }
    for (size_t b = 0; b < n; b++) {
      a[b] = rng_range(&rng, -1.5, 1.5);
      ta[b] = rng_range(&rng, -1, 1);
      ap[b] = a[b] + SH * ta[b];
      am[b] = a[b] - SH * ta[b];
      for (int k = 0; k < 3; k++) {
        da[k][b] = 0.25;
        ha[k][b] = -0.5;
        ga[k][b] = k == 0 ? 0.25 : 0.0;
      }
      for (int i = 0; i < len[b]; i++) {
        size_t at = b * maxl + (size_t)i;
        mix v = ms[at], t = tms[at], d = dms[at], hv = hms[at];
        v.w = (float)(rng_below(&rng, 4097) - 2048) * 0x1p-10f;
        v.v = rng_range(&rng, -2, 2);
        v.k = rng_below(&rng, 5) - 2;
        t.w = (float)(rng_below(&rng, 17) - 8) * 0.125f;
        t.v = rng_range(&rng, -1, 1);
        t.k = 7; /* never read */
        d.w = (float)rng_range(&rng, -1, 1);
        d.v = rng_range(&rng, -1, 1);
        hv.w = (float)rng_range(&rng, -1, 1);
        hv.v = rng_range(&rng, -1, 1);
        ms[at] = AT(M, mix, b, i) = v;
        tms[at] = AT(TM, mix, b, i) = t;
        dms[at] = AT(DM1, mix, b, i) = AT(DM2, mix, b, i) = AT(G0, mix, b, i) =
            d;
        hms[at] = h0[at] = AT(HM1, mix, b, i) = AT(HM2, mix, b, i) = hv;
        mix up = v, dn = v;
        up.w = v.w + (float)SH * t.w;
        dn.w = v.w - (float)SH * t.w;
        up.v = v.v + SH * t.v;
        dn.v = v.v - SH * t.v;
        AT(Mp, mix, b, i) = up;
        AT(Mm, mix, b, i) = dn;
        AT(Gp, mix, b, i).w = AT(Gm, mix, b, i).w = 0.0f;
        AT(Gp, mix, b, i).v = AT(Gm, mix, b, i).v = 0.0;
        vec3 c = {rng_range(&rng, -1, 1), rng_range(&rng, -1, 1),
                  rng_range(&rng, -1, 1)};
        cot[at] = dos[at] = AT(DO1, vec3, b, i) = AT(DO2, vec3, b, i) = c;
        hos[at] = AT(HO1, vec3, b, i) = AT(HO2, vec3, b, i) = (vec3){0, 0, 0};
      }
    }
    gp_seal(ms);
    gp_seal(tms);
    sc_s_hvp(n, len, ms, (ptrdiff_t)maxl, os, (ptrdiff_t)maxl, a, tms,
             (ptrdiff_t)maxl, tos, (ptrdiff_t)maxl, ta, dms, (ptrdiff_t)maxl,
             dos, (ptrdiff_t)maxl, da[0], hms, (ptrdiff_t)maxl, hos,
             (ptrdiff_t)maxl, ha[0]);
    sc_p_hvp(n, len, (const mix *)M.m.map, M.off, (vec3 *)O1.m.map, O1.off, a,
             (const mix *)TM.m.map, (vec3 *)TO1.m.map, ta, (mix *)DM1.m.map,
             (vec3 *)DO1.m.map, da[1], (mix *)HM1.m.map, (vec3 *)HO1.m.map,
             ha[1]);
    sc_q_hvp(n, len, (const mix *const *)M.ptr, (vec3 *const *)O2.ptr, a,
             (const mix *const *)TM.ptr, (vec3 *const *)TO2.ptr, ta,
             (mix *const *)DM2.ptr, (vec3 *const *)DO2.ptr, da[2],
             (mix *const *)HM2.ptr, (vec3 *const *)HO2.ptr, ha[2]);
    for (size_t b = 0; b < n; b++) {
      for (int k = 1; k < 3; k++)
        if (memcmp(&da[k][b], &da[0][b], 8) ||
            memcmp(&ha[k][b], &ha[0][b], 8)) {
          print_error("scatter_hvp %s n=%zu b=%zu: d_a/h_a %.17g/%.17g, "
                      "strided %.17g/%.17g\n",
                      k == 1 ? "packed" : "pointers", n, b, da[k][b], ha[k][b],
                      da[0][b], ha[0][b]);
          fail();
        }
      for (int i = 0; i < len[b]; i++) {
        size_t at = b * maxl + (size_t)i;
        int bad = 0;
        bad |= memcmp(&AT(O1, vec3, b, i), &os[at], 24) |
               memcmp(&AT(O2, vec3, b, i), &os[at], 24);
        bad |= memcmp(&AT(TO1, vec3, b, i), &tos[at], 24) |
               memcmp(&AT(TO2, vec3, b, i), &tos[at], 24);
        bad |= memcmp(&AT(DO1, vec3, b, i), &dos[at], 24) |
               memcmp(&AT(DO2, vec3, b, i), &dos[at], 24);
        bad |= memcmp(&AT(HO1, vec3, b, i), &hos[at], 24) |
               memcmp(&AT(HO2, vec3, b, i), &hos[at], 24);
        bad |= memcmp(&AT(DM1, mix, b, i), &dms[at], 16) |
               memcmp(&AT(DM2, mix, b, i), &dms[at], 16);
        bad |= memcmp(&AT(HM1, mix, b, i), &hms[at], 16) |
               memcmp(&AT(HM2, mix, b, i), &hms[at], 16);
        if (bad) {
          print_error("scatter_hvp n=%zu b=%zu record %d differs from the "
                      "strided twin's\n",
                      n, b, i);
          fail();
        }
        vec3 want;
        memset(&want, SENT, sizeof want);
        sc_s(1, &ms[at], &want, a[b]);
        /* y: the runtime's vector sin, within its 1 ULP bound */
        if (memcmp(&os[at].x, &want.x, 8) || memcmp(&os[at].z, &want.z, 8) ||
            !close_to(os[at].y, want.y, 1e-15)) {
          print_error("scatter n=%zu b=%zu record %d: out differs from the "
                      "scalar function's\n",
                      n, b, i);
          fail();
        }
      }
    }
    /* NAME_grad (d_out: the cotangents again) from the same d_m, d_a: the
     * same bits; from 0 at (m, a) +- h (t_m, t_a): the H·v. */
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++)
        AT(GO, vec3, b, i) = cot[b * maxl + (size_t)i];
    sc_p_grad(n, len, (const mix *)M.m.map, M.off, (vec3 *)O1.m.map, O1.off, a,
              (mix *)G0.m.map, (vec3 *)GO.m.map, ga[0]);
    for (int k = 1; k < 3; k++) {
      for (size_t b = 0; b < n; b++)
        for (int i = 0; i < len[b]; i++)
          AT(GO, vec3, b, i) = cot[b * maxl + (size_t)i];
      sc_p_grad(n, len, k == 1 ? (const mix *)Mp.m.map : (const mix *)Mm.m.map,
                M.off, (vec3 *)O1.m.map, O1.off, k == 1 ? ap : am,
                k == 1 ? (mix *)Gp.m.map : (mix *)Gm.m.map, (vec3 *)GO.m.map,
                ga[k]);
    }
    for (size_t b = 0; b < n; b++) {
      double fa = (ga[1][b] - ga[2][b]) / (2 * SH);
      if (memcmp(&ga[0][b], &da[1][b], 8) ||
          !close_to(ha[1][b] + 0.5, fa, 1e-5)) {
        print_error("scatter_hvp n=%zu b=%zu: d_a %.17g grad %.17g, H.v %.17g "
                    "fd %.17g\n",
                    n, b, da[1][b], ga[0][b], ha[1][b] + 0.5, fa);
        fail();
      }
      for (int i = 0; i < len[b]; i++) {
        size_t at = b * maxl + (size_t)i;
        if (memcmp(&AT(G0, mix, b, i), &AT(DM1, mix, b, i), 16)) {
          print_error("scatter_hvp n=%zu b=%zu record %d: d_m differs from "
                      "NAME_grad's\n",
                      n, b, i);
          fail();
        }
        for (int j = 0; j < 2; j++) {
          double fd =
              (mget(&AT(Gp, mix, b, i), j) - mget(&AT(Gm, mix, b, i), j)) /
              (2 * SH);
          double hv = mget(&AT(HM1, mix, b, i), j) - mget(&h0[at], j);
          /* d_m.w is a float: the difference of two rounded gradients
           * over 2h has an error of about 2^-24 |g| / 2h = 1.2e-4 |g|. */
          if (!close_to(hv, fd, j ? 1e-5 : 2e-3)) {
            print_error("scatter_hvp n=%zu b=%zu record %d member %d: H.v "
                        "%.17g fd %.17g\n",
                        n, b, i, j, hv, fd);
            fail();
          }
        }
      }
    }
    for (size_t k = 0; k < sizeof mixes / sizeof mixes[0]; k++) {
      /* w, padding, v: never k (nor what follows it) */
      rk_check(mixes[k], n, len, 0, k < 4 ? sizeof(mix) : 16, "scatter m");
      rk_free(mixes[k]);
    }
    for (size_t k = 0; k < sizeof vecs / sizeof vecs[0]; k++) {
      rk_check(vecs[k], n, len, 0, sizeof(vec3), "scatter out");
      rk_free(vecs[k]);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_energy),
      cmocka_unit_test(t_scatter),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
