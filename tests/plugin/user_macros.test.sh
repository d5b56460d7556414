# plugin.user_macros: a user's macros do not break the public headers.
# A file may `#define B 1` (or pass -Dn=4) before `#include <batchdiff.h>`,
# which then reads the runtime headers with those macros in force. The
# headers hide them (macro_shield.h, made by scripts/gen-macro-shield.sh)
# and restore them at their end; <batchdiff.h>'s annotation macros use the
# attributes' reserved spellings. The names checked are found, not listed:
# every identifier of runtime/include/batchdiff/*.h and annotations/
# batchdiff.h and every name of one or two characters, less keywords,
# reserved names (`_x`, `__x`), batchdiff's own (`bd_`, `BD_`, `BATCHDIFF`)
# and the C library's. Each becomes
# `-DNAME=@` (an error wherever it is expanded), and a file including
# <batchdiff.h> with annotated functions (plugin loaded), and the runtime
# headers alone (C and C++) are compiled for SSE2, AVX2 and AVX-512; the
# names that broke a compile are listed. Then the macros must be the user's
# again after the headers.
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/plugin/lib.sh"
: "${CLANGXX:?}"
export LC_ALL=C
INC="$root/runtime/include"
ANN="$root/annotations"

GEN="$root/scripts/gen-macro-shield.sh"

# Names of the runtime headers and of <batchdiff.h> (whose annotation
# macros are expanded in the user's code: they spell the attributes
# __batch__, __diff__(__forward__) ...), and all names of one and two
# characters; less keywords, reserved names, batchdiff's own and the C
# library's (for C++: the C++ library's too). The identifiers, keywords and
# library names are gen-macro-shield.sh's, which makes macro_shield.h.
sh "$GEN" --idents "$INC"/batchdiff/*.h "$ANN"/batchdiff.h >hdr.txt
awk 'BEGIN { s = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
             d = s "0123456789_"
             for (i = 1; i <= 52; i++) {
               a = substr(s, i, 1); print a
               for (j = 1; j <= 63; j++) print a substr(d, j, 1)
             } }' >short.txt
sh "$GEN" --keywords >kw.txt
sh "$GEN" --libnames c >libc.txt
sh "$GEN" --libnames c++ | sort -u - libc.txt >libcxx.txt
[ "$(grep -c . libc.txt)" -gt 1000 ] || fail "implausibly few C library names"
sort -u hdr.txt short.txt | grep -vE '^(_|bd_|BD_|BATCHDIFF)' |
  comm -23 - kw.txt | comm -23 - libc.txt >names.txt
comm -23 names.txt libcxx.txt >names_cxx.txt
[ "$(grep -c . names.txt)" -gt 3000 ] || fail "implausibly few names"
echo "plugin.user_macros: $(grep -c . names.txt) names defined (C++:" \
  "$(grep -c . names_cxx.txt)), of them $(comm -12 names.txt hdr.txt | grep -c .)" \
  "used in the headers"
sed 's/^/-D/; s/$/=@/' names.txt >defs.txt
sed 's/^/-D/; s/$/=@/' names_cxx.txt >defs_cxx.txt

# A user's file: the macros are in force from the start (-D, as #define
# before the #include). Its own code uses none of the names.
cat >user.c <<'EOF'
#include <batchdiff.h>

BATCHDIFF double um_poly(double um_arg, const double *um_tab BD_EXTENT(4)) {
  double um_acc = 0.0;
  for (int um_k = 0; um_k < 4; um_k++)
    um_acc = um_acc * um_arg + um_tab[um_k];
  return exp(um_acc) + sin(um_arg) + lgamma(2.0 + um_arg * um_arg);
}

struct um_pt { double um_px, um_py; };
BATCHDIFF double um_norm(struct um_pt um_pp, float um_wt) {
  return sqrt(um_pp.um_px * um_pp.um_px + um_pp.um_py * um_pp.um_py) *
         (double)expf(um_wt);
}

/* Every annotation macro. */
BD_BATCH BD_DIFF BD_JVP BD_HVP double um_all(double um_a, BD_UNIFORM double um_u,
                                              BD_NODIFF double um_c) {
  return um_a * um_u + um_c;
}
BD_BATCH double um_sum(const double *um_r BD_PACKED, int um_len) {
  double um_s = 0.0;
  for (int um_i = 0; um_i < um_len; um_i++)
    um_s += um_r[um_i];
  return um_s;
}
BD_BATCH double um_sum2(const double *um_r BD_POINTERS, int um_len) {
  double um_s = 0.0;
  for (int um_i = 0; um_i < um_len; um_i++)
    um_s += um_r[um_i];
  return um_s;
}
EOF
printf '#include <batchdiff/batchdiff_rt.h>\n#include <batchdiff/gen_support.h>\n' >rt.c
cp rt.c rt.cpp

bad=0
# try DEFS LABEL CMD...: CMD with every name of DEFS defined; on failure,
# the names that clang's errors point at.
try() {
  defs=$1
  label=$2
  shift 2
  set +e
  # shellcheck disable=SC2046
  "$@" -ferror-limit=0 $(cat "$defs") >"$label.out" 2>&1
  rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    bad=1
    echo "FAIL: $label: exit status $rc with the user's macros defined;" \
      "names expanded in the headers:" >&2
    grep -oE "expanded from macro '[A-Za-z0-9_]+'" "$label.out" |
      sed "s/.*'\\(.*\\)'/\\1/" | grep -vE '^(bd_|BD_)' | sort -u |
      tr '\n' ' ' >&2
    echo >&2
    head -20 "$label.out" >&2
  fi
}
for isa in "" -mavx2 -march=x86-64-v4; do
  tag=${isa:-sse2}
  # shellcheck disable=SC2086
  try defs.txt "plugin$tag" bdcc $isa -std=c11 -O1 -I"$INC" -I"$ANN" -c user.c -o user.o
  # shellcheck disable=SC2086
  try defs.txt "c$tag" "$CLANG" $isa -std=c99 -I"$INC" -fsyntax-only rt.c
  # shellcheck disable=SC2086
  try defs_cxx.txt "cxx$tag" "$CLANGXX" $isa -std=c++11 -I"$INC" -fsyntax-only rt.cpp
done
[ "$bad" -eq 0 ] || fail "the runtime headers use names a user's macro replaces"

# The user's macros are theirs again after the headers, however these are
# included (one after the other, one inside another).
cat >restored.c <<'EOF'
#define B 17
#define x (B + 1)
#include <batchdiff/simd.h>
#include <batchdiff/batchdiff_rt.h>
#include <batchdiff.h>
#include <batchdiff/gen_support.h>
_Static_assert(B == 17 && x == 18, "the user's macros are restored");
int um_restored(void) { return B + x; }
EOF
bdcc -std=c11 -Wall -Wextra -Werror -I"$INC" -I"$ANN" -c restored.c -o restored.o
sed 's/_Static_assert/static_assert/' restored.c >restored.cpp
"$CLANGXX" -std=c++11 -Wall -Wextra -Werror -I"$INC" -I"$ANN" -c restored.cpp \
  -o restored_cxx.o
# Without the macros the file compiles and defines what it should.
bdcc -std=c11 -O1 -I"$INC" -I"$ANN" -c user.c -o user.o
expect_syms user.o um_poly_batched um_poly_grad um_norm_batched um_norm_grad \
  um_all_batched um_all_grad um_all_jvp um_all_hvp um_sum_batched um_sum2_batched
