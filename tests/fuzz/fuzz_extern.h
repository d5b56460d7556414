/* The outside functions of gen.py --features ecalls (ufeatures.py). The
 * harness includes this header for their declarations; the generated file
 * includes it again after every function with FZ_EXT_DEFINE for their
 * bodies, so the bodies are not there when the plugin lowers the calls
 * (docs/calls.md, "Calls of outside functions": such a call is made once
 * per example that reaches it). Each records its call in fz_ext_n and an
 * order-independent hash of its arguments, fz_ext_h (fuzz_harness.h; a
 * batch's calls interleave across examples); fz_ext_code's result depends
 * on its arguments only. */
#ifndef BATCHDIFF_FUZZ_EXTERN_H
#define BATCHDIFF_FUZZ_EXTERN_H
void fz_ext_note(int site, int k);
int fz_ext_code(int site, int k);
int fz_ext_msg(const char *what, int k);
/* --features passon (pfeatures.py): pointers passed on */
void fz_ext_put(int site, int k, int *s);
int fz_ext_nsum_uc(int site, const unsigned char *p, int n);
int fz_ext_nsum_sc(int site, const signed char *p, int n);
int fz_ext_nsum_ch(int site, const char *p, int n);
int fz_ext_nsum_sh(int site, const short *p, int n);
int fz_ext_nsum_us(int site, const unsigned short *p, int n);
int fz_ext_nsum_bo(int site, const _Bool *p, int n);
#endif

#if defined(FZ_EXT_DEFINE) && !defined(BATCHDIFF_FUZZ_EXTERN_BODIES)
#define BATCHDIFF_FUZZ_EXTERN_BODIES
static uint64_t fz_ext_mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

static void fz_ext_record(uint64_t tag, int site, int k) {
  fz_ext_n++;
  fz_ext_h += fz_ext_mix(tag * 0x9e3779b97f4a7c15ULL ^
                         ((uint64_t)(uint32_t)site << 32) ^ (uint32_t)k);
}

void fz_ext_note(int site, int k) { fz_ext_record(1, site, k); }

int fz_ext_code(int site, int k) {
  fz_ext_record(2, site, k);
  return ((k % 5) + 5) % 5 - 2 + (site & 1);
}

/* The callees taking pointers are defined under other names, given their
 * symbols by asm labels: the plugin waits for the body of a function
 * called with pointers until the file ends (docs/calls.md), and these must
 * stay outside functions, called once per example, as if in another file.
 * Writes *s unless s is null; the record tells which. */
void fz_ext_put_def(int site, int k, int *s) __asm__("fz_ext_put");
void fz_ext_put_def(int site, int k, int *s) {
  fz_ext_record(s ? 4 : 5, site, k);
  if (s)
    *s = ((k % 7) + 7) % 7 - 3 + site % 3;
}

/* nsum_* of wfeatures.py ('narrow'), computed outside: the record holds
 * the elements read, so a wrong address or count is seen. */
#define FZ_EXT_NSUM(tag, T)                                                    \
  int fz_ext_nsum_##tag##_def(int site, const T *p, int n)                     \
      __asm__("fz_ext_nsum_" #tag);                                            \
  int fz_ext_nsum_##tag##_def(int site, const T *p, int n) {                   \
    int s = 0;                                                                 \
    for (int i = 0; i < n; i++)                                                \
      s = (s * 3 + p[i]) % 1000;                                               \
    fz_ext_record(6, site, s * 64 + n);                                        \
    return s + site % 2;                                                       \
  }
FZ_EXT_NSUM(uc, unsigned char)
FZ_EXT_NSUM(sc, signed char)
FZ_EXT_NSUM(ch, char)
FZ_EXT_NSUM(sh, short)
FZ_EXT_NSUM(us, unsigned short)
FZ_EXT_NSUM(bo, _Bool)

int fz_ext_msg(const char *what, int k) {
  int site = 0;
  while (*what)
    site = site * 31 + (unsigned char)*what++;
  fz_ext_record(3, site, k);
  return 0;
}
#endif
