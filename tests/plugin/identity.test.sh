# Unannotated code compiles exactly as without the plugin: byte-identical
# objects, IR, assembly and warnings; and an annotated function's own code is
# unchanged.
. "$SRC/lib.sh"

for src in "$IN"/identity/*.c; do
  base=$(basename "$src" .c)
  for opt in -O0 -O2 "-O2 -g" "-O1 -fPIC"; do
    # Same output file name both times: it is recorded in debug info.
    # shellcheck disable=SC2086
    "$CLANG" $opt -c "$src" -o "$base.o"
    mv "$base.o" "$base.ref.o"
    # shellcheck disable=SC2086
    bdcc $opt -c "$src" -o "$base.o"
    cmp "$base.ref.o" "$base.o" || fail "$base.o differs with $opt"
  done
  "$CLANG" -O2 -S -emit-llvm "$src" -o "$base.ref.ll"
  bdcc -O2 -S -emit-llvm "$src" -o "$base.ll"
  diff "$base.ref.ll" "$base.ll" >/dev/null || fail "$base.ll differs"
  "$CLANG" -O2 -S "$src" -o "$base.ref.s"
  bdcc -O2 -S "$src" -o "$base.s"
  diff "$base.ref.s" "$base.s" >/dev/null || fail "$base.s differs"
  "$CLANG" -fsyntax-only -Weverything "$src" >"$base.ref.w" 2>&1 || true
  bdcc -fsyntax-only -Weverything "$src" >"$base.w" 2>&1 || true
  diff "$base.ref.w" "$base.w" || fail "$base warnings differ"
done

# The user's annotate attribute still reaches the IR.
grep -q 'user.hash' table.ll || fail "user annotation lost"

# The annotated function itself: same machine code with and without (the
# alignment padding after it differs when another function follows).
for opt in -O0 -O2; do
  # shellcheck disable=SC2086
  "$CLANG" $opt -Wno-unknown-attributes -c "$IN/annotated_identity.c" -o ref.o
  # shellcheck disable=SC2086
  bdcc $opt -c "$IN/annotated_identity.c" -o ann.o
  expect_syms ann.o kernel_batched kernel_grad
  "$OBJDUMP" -d --no-show-raw-insn --disassemble-symbols=kernel ref.o |
    grep -v -e 'file format' -e 'nop' >ref.dis
  "$OBJDUMP" -d --no-show-raw-insn --disassemble-symbols=kernel ann.o |
    grep -v -e 'file format' -e 'nop' >ann.dis
  grep -q '<kernel>:' ref.dis || fail "no kernel in ref.o"
  diff ref.dis ann.dis || fail "kernel's code changed with $opt"
done

# Unannotated functions of an annotated file: same machine code and the same
# relocations (a constant folded into the code reads a constant pool; a
# table read in place reads the table). Gathers need AVX2 or AVX-512.
for opt in -O2 "-O2 -mavx2" "-O2 -march=x86-64-v4"; do
  # shellcheck disable=SC2086
  "$CLANG" $opt -ffunction-sections -c "$IN/static_tables.c" -o ref.o
  # shellcheck disable=SC2086
  bdcc $opt -ffunction-sections -c "$IN/static_tables.c" -o ann.o
  expect_syms ann.o tab1_batched tab1_grad tabf_batched
  for fn in plain_t1 plain_f1 plain_t2 plain_s plain_l1; do
    for o in ref ann; do
      "$OBJDUMP" -dr --no-show-raw-insn --disassemble-symbols=$fn $o.o |
        grep -v -e 'file format' -e 'nop' |
        sed 's/\.LCPI[0-9]*_/.LCPI_/' >$o.dis
    done
    grep -q "<$fn>:" ref.dis || fail "no $fn in ref.o"
    diff ref.dis ann.dis || fail "$fn's code changed with $opt"
  done
done
