# Ragged rows read in blocks (plugin/emit/KernelRagged.cpp, docs/performance.md
# "Ragged rows read in blocks"): `x[i]` under `for (i = 0; i < n; i++)` with
# n per example is no gather per trip in the generated C but a block of W
# trips' elements (bd_rblock_load_*; a gather only where a lane is within W
# elements of its bound) in each layout (strided, BD_PACKED,
# BD_POINTERS), doubles and floats, in NAME_batched and NAME_grad's forward
# sweep; ragged-blocks=0 keeps the gathers. A read at a per-example index
# (x[n - 1 - i]) stays a gather. Values: tests/arrays/test_ragged_blocks.c.
. "$SRC/lib.sh"

cat >rb.c <<'C'
#include <batchdiff.h>
#define KAHAN(T)                                                               \
  T s = 0, c = 0;                                                              \
  for (int i = 0; i < n; i++) {                                                \
    T y = x[i] - c;                                                            \
    T t = s + y;                                                               \
    c = (t - s) - y;                                                           \
    s = t;                                                                     \
  }                                                                            \
  return n > 0 ? s / n : 0;
BATCHDIFF double ks(const double *x, int n) { KAHAN(double) }
BATCHDIFF double ko(BD_PACKED const double *x, int n) { KAHAN(double) }
BATCHDIFF double kp(BD_POINTERS const double *x, int n) { KAHAN(double) }
BATCHDIFF float kf(const float *x, int n) { KAHAN(float) }
BATCHDIFF double rev(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s = s * 0.5 + x[i] * x[n - 1 - i];
  return s;
}
C
# The kernels (__bd_NAME_bk / _gk): from their line to the wrapper's struct.
kernel() { sed -n "/^static.* void __bd_$2(/,/^struct /p" "$1"; }
mkdir -p on off
bdcc -O2 -march=x86-64-v3 -fplugin-arg-batchdiff-emit=on -c rb.c -o on.o ||
  fail "rb.c does not compile"
bdcc -O2 -march=x86-64-v3 -fplugin-arg-batchdiff-emit=off \
  -fplugin-arg-batchdiff-ragged-blocks=0 -c rb.c -o off.o ||
  fail "rb.c does not compile with ragged-blocks=0"
on=$(ls on/*.c)
off=$(ls off/*.c)
for k in ks_bk ko_bk kp_bk ks_gk ko_gk kp_gk kf_bk kf_gk; do
  kernel "$on" "$k" >k.txt
  [ -s k.txt ] || fail "no kernel __bd_$k in $on"
  grep -q 'bd_rblock_load_f[36][24][dn](' k.txt ||
    fail "__bd_$k reads no block: $(grep -c gather k.txt) gathers"
  # A gather only where no block can be filled (a lane near its bound),
  # right after the index of the failed fill is noted.
  if grep -B1 'bd_gather_f' k.txt | grep -v 'bd_gather_f\|^--$' |
    grep -qv '__bd_rf[0-9_]* = '; then
    fail "__bd_$k gathers outside the blocks' fallback"
  fi
  kernel "$off" "$k" >k.txt
  grep -q 'bd_gather_f' k.txt || fail "__bd_$k gathers nothing with ragged-blocks=0"
  if grep -q 'bd_rblock_load' k.txt; then
    fail "__bd_$k reads blocks with ragged-blocks=0"
  fi
done
kernel "$on" rev_bk >k.txt
grep -q 'bd_rblock_load_f64d(' k.txt || fail "rev_bk: x[i] read in no block"
grep -q 'bd_gather_f64d' k.txt ||
  fail "rev_bk: x[n - 1 - i] (a per-example index) should stay a gather"
echo ok
