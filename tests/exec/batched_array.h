/* Functions of another file (batched_array_other.c) marked batch, diff
 * where they are declared, taking read-only arrays as Cephes' polevl,
 * p1evl and chbevl do: test_batched_array.c's functions call them with
 * tables and array parameters, through their NAME_batched and NAME_grad. */
#ifndef BATCHDIFF_TESTS_BATCHED_ARRAY_H
#define BATCHDIFF_TESTS_BATCHED_ARRAY_H

#include <batchdiff.h>

/* Cephes' walks: coef[0] x^N + ... + coef[N]; p1evl's leading 1 implied;
 * a Chebyshev series of n terms. */
BATCHDIFF double pv_polevl(double x, const double coef[], int N);
BATCHDIFF double pv_p1evl(double x, const double coef[], int N);
BATCHDIFF double pv_chbevl(double x, const double array[], int n);
/* One array and one count for the batch. */
BATCHDIFF double pv_upoly(double x, BD_UNIFORM const double c[],
                          BD_UNIFORM int N);
/* An integer array: a polynomial of half-integer coefficients k[i] / 2. */
BATCHDIFF double pv_halfs(double x, const int k[], int m);

#endif
