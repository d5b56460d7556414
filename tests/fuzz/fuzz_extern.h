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

int fz_ext_msg(const char *what, int k) {
  int site = 0;
  while (*what)
    site = site * 31 + (unsigned char)*what++;
  fz_ext_record(3, site, k);
  return 0;
}
#endif
