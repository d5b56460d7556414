# Helpers shared by the plugin tests (sourced; POSIX sh).
#
# Environment (set by CTest, see CMakeLists.txt): CLANG, PLUGIN, FILECHECK,
# NM, OBJDUMP, RTLIB (libbatchdiff_rt.a), SRC (this directory), WORK (an
# empty scratch directory).
set -eu
: "${CLANG:?}" "${PLUGIN:?}" "${FILECHECK:?}" "${NM:?}" "${SRC:?}" "${WORK:?}"
IN="$SRC/inputs"
cd "$WORK"

# On some hosts clang itself warns at every -march=native compile, plugin or
# not ("invalid feature combination: +avx10.1-256": a VM's CPU model with
# AVX10.1 and AVX-512). That warning is about the host, not about what these
# tests check (no output, -Werror): silenced for every clang these scripts
# run, on such hosts only. target_warnings.test.sh, which counts it, unsets
# this.
if "$CLANG" -march=native -fsyntax-only -x c /dev/null 2>&1 |
  grep -q 'invalid feature combination'; then
  export CCC_OVERRIDE_OPTIONS="# +-Wno-invalid-feature-combination"
fi

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# bdcc ARGS...: clang-19 with the plugin, as users run it.
bdcc() { "$CLANG" -fplugin="$PLUGIN" "$@"; }

# run_rc WANT CMD...: runs CMD, prints its output on mismatch. WANT is an exit
# status; 1 for "compile error" also proves clang did not die of a signal.
run_rc() {
  want=$1
  shift
  set +e
  "$@" >"$WORK/last.out" 2>&1
  rc=$?
  set -e
  if [ "$rc" -ne "$want" ]; then
    cat "$WORK/last.out" >&2
    fail "exit status $rc, expected $want: $*"
  fi
}

# expect_ok CMD...: exit 0 and nothing on stdout/stderr (no warnings).
expect_ok() {
  run_rc 0 "$@"
  if [ -s "$WORK/last.out" ]; then
    cat "$WORK/last.out" >&2
    fail "unexpected output: $*"
  fi
}

# expect_syms OBJ SYM...: each SYM is defined (any section) in OBJ.
expect_syms() {
  obj=$1
  shift
  for s in "$@"; do
    "$NM" --defined-only "$obj" | awk '{print $NF}' | grep -qx "$s" ||
      fail "$obj does not define $s"
  done
}

# expect_no_text FILE PATTERN: FILE must not match PATTERN.
expect_no_text() {
  if grep -q "$2" "$1"; then
    cat "$1" >&2
    fail "$1 matches '$2'"
  fi
}

# check_diags INPUT [CLANG ARGS...]: compiles INPUT expecting exit status 1
# and matches the diagnostics against INPUT's CHECK lines.
check_diags() {
  input=$1
  shift
  run_rc 1 bdcc -fsyntax-only -fno-color-diagnostics "$@" "$input"
  "$FILECHECK" --input-file="$WORK/last.out" "$input"
}
