# Accepted spellings compile warning-free and define every generated function;
# misplaced or malformed attributes are diagnosed at their location.
. "$SRC/lib.sh"

expect_ok bdcc -Wall -Wextra -Werror -Werror=implicit-function-declaration \
  -c "$IN/accepted.c" -o accepted.o
expect_syms accepted.o sq sq_batched sq_grad cube_batched cube_grad \
  scale_batched scale_grad weighted_batched mixed_batched mixed_grad \
  c23_batched c23_grad internal_batched use_generated fwd_jvp both_batched \
  both_grad both_jvp all3_batched all3_grad all3_jvp
# Nothing about weighted_grad: only batch was asked for. diff(forward)
# alone gives NAME_jvp and nothing else; plain diff gives no NAME_jvp.
for s in weighted_grad fwd_grad fwd_batched cube_jvp; do
  if "$NM" accepted.o | grep -q "$s"; then
    fail "$s generated without being asked for"
  fi
done

# Pedantic user flags do not fire on generated code (it is a system buffer).
expect_ok bdcc -std=c99 -pedantic-errors -Wall -Wextra -Wmissing-prototypes \
  -Wmissing-variable-declarations -Werror -c "$IN/annotated_identity.c" \
  -Wno-missing-prototypes -o strict.o
expect_syms strict.o kernel_batched kernel_grad

check_diags "$IN/misplaced.c"
