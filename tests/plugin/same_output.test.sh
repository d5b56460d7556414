# The generated code is the same from one compile of a file to the next
# (reproducible builds; golden tests rely on it too). The gotos that enter
# blocks (tests/exec/test_goto_enter.c) made their `__goto_` flags in the
# order of a map keyed by addresses, which change from one run of clang to
# the next: 2 different outputs in 6 compiles before.
. "$SRC/lib.sh"

files="$SRC/../exec/test_goto_enter.c $SRC/../loops/test_loops_jumps.c"
for f in $files; do
  b=$(basename "$f" .c)
  k=0
  while [ $k -lt 10 ]; do
    mkdir -p "e$k"
    expect_ok bdcc -O2 -march=native -I "$SRC/../exec" -I "$SRC/../loops" \
      -I "$SRC/../common" -fsyntax-only -fplugin-arg-batchdiff-emit="e$k" "$f"
    ls "e$k"/* >/dev/null 2>&1 || fail "$b: nothing emitted"
    if [ $k -gt 0 ]; then
      diff -r e0 "e$k" >/dev/null || {
        diff -r e0 "e$k" | head -20 >&2
        fail "$b: compile $k emitted other code than compile 0"
      }
    fi
    k=$((k + 1))
  done
  rm -rf e[0-9]
done
