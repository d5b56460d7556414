/* A block run once that fills a static table of structs (tables of
 * numbers and number globals work). */
struct seg { double lo, c; };
static struct seg segs[8];
static int ready;
__attribute__((batch, diff)) double f(double x) {
  if (!ready) {
    for (int i = 0; i < 8; i++)
      segs[i].c = 0.5 * i;
    // CHECK: init-once-struct.c:[[@LINE-1]]:7: error: writing global 'segs' of type 'struct seg[8]' in the block run once under 'ready' is not supported in a batch/diff function; a block run once may fill 'static' globals of numbers and tables of numbers; keep the records in a table per member
    ready = 1;
  }
  return segs[(int)(x * x) % 8].c * x;
}
