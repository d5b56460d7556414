/* Runs a test program only where the CPU can execute it.
 *
 * Usage: bd_run_if_cpu <x86-64-v3|x86-64-v4> <program> [args...]
 * Built for the x86-64 baseline, so it runs everywhere. When the CPU lacks
 * a feature of the level the program was compiled for (-march=<level>), it
 * prints which one and exits 77, CTest's SKIP_RETURN_CODE for these tests;
 * otherwise it replaces itself with the program. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *missing_feature(const char *level) {
  if (!strcmp(level, "x86-64-v3")) {
    if (!__builtin_cpu_supports("avx2"))
      return "AVX2";
    if (!__builtin_cpu_supports("fma"))
      return "FMA";
    return NULL;
  }
  if (!strcmp(level, "x86-64-v4")) {
    if (!__builtin_cpu_supports("avx512f"))
      return "AVX-512F";
    if (!__builtin_cpu_supports("avx512bw"))
      return "AVX-512BW";
    if (!__builtin_cpu_supports("avx512dq"))
      return "AVX-512DQ";
    if (!__builtin_cpu_supports("avx512vl"))
      return "AVX-512VL";
    if (!__builtin_cpu_supports("avx512cd"))
      return "AVX-512CD";
    return missing_feature("x86-64-v3");
  }
  return "a known level (the first argument)";
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s <x86-64-v3|x86-64-v4> <program> [args...]\n",
            argv[0]);
    return 2;
  }
  __builtin_cpu_init();
  const char *m = missing_feature(argv[1]);
  if (m) {
    printf("SKIPPED: %s is built for %s, but this CPU lacks %s\n", argv[2],
           argv[1], m);
    return 77;
  }
  execv(argv[2], argv + 2);
  perror(argv[2]);
  return 2;
}
