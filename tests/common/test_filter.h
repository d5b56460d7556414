/* Running one test of a CMocka program at a time.
 *
 * Usage: bd_test_filter(argc, argv); right before cmocka_run_group_tests.
 * The first argument, or else the environment variable BD_TEST_FILTER, is
 * a CMocka pattern (wildcards * and ?) of the test names to run:
 *
 *   _build/test/tests/exec/exec_grad 'grad_huber*'
 *   BD_TEST_FILTER='*ragged*' ctest --test-dir _build/test -R loops_diff -V
 *
 * (ctest passes no arguments, so the environment variable reaches it.) */
#ifndef BATCHDIFF_TESTS_COMMON_TEST_FILTER_H
#define BATCHDIFF_TESTS_COMMON_TEST_FILTER_H

#include <stdlib.h>

static void bd_test_filter(int argc, char **argv) {
  const char *f =
      argc > 1 && argv[1][0] != '-' ? argv[1] : getenv("BD_TEST_FILTER");
  if (f && *f)
    cmocka_set_test_filter(f);
}

#endif
