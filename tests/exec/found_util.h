/* The error reporters of the numeric C in test_found*.c, as nrutil.h and
 * mconf.h declare them: they count (and sum a hash of) their messages
 * instead of exiting. Include once per test program, after the annotated
 * functions. */
#ifndef BD_TEST_FOUND_UTIL_H
#define BD_TEST_FOUND_UTIL_H

#include <stdint.h>

#include "exec_util.h"

/* The error reporters, counting (and summing a hash of) their messages:
 * the batched functions must make exactly the scalar loop's calls. */
static uint64_t reports, report_hash;
static void report(const char *s, int code) {
  uint64_t h = 1469598103934665603ULL + (uint64_t)code;
  while (*s)
    h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
  reports++;
  report_hash += h;
}
void nrerror(char error_text[]) { report(error_text, 0); }
int mtherr(char *name, int code) {
  report(name, code);
  return 0;
}
#define SAME_REPORTS(n, want, want_hash)                                       \
  do {                                                                         \
    if (reports != (want) || report_hash != (want_hash)) {                     \
      print_error("n=%zu: %" PRIu64 " error reports, want %" PRIu64 "\n", n,   \
                  reports, (uint64_t)(want));                                  \
      fail();                                                                  \
    }                                                                          \
  } while (0)

#endif
