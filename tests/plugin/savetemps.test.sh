# -save-temps: the driver preprocesses first (-E, where no AST action and so
# no predefine or header search path of ours runs), then compiles the .i.
# The -E step finds batchdiff.h only through -I (as pkg-config --cflags
# gives); batchdiff.h sees the loaded plugin through __has_attribute(__batch__)
# and the generated text skips its #include once the runtime is declared.
. "$SRC/lib.sh"

FLAGS="-Wall -Wextra -Werror -I$IN -I$SRC/../../annotations -I$SRC/../../runtime/include"
# shellcheck disable=SC2086
expect_ok bdcc $FLAGS -save-temps -c "$IN/savetemps.c" -o st.o
expect_syms st.o f_st_batched f_st_grad run_st
[ -s savetemps.i ] || fail "-save-temps left no .i"
