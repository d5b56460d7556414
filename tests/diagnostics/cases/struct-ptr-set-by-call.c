/* A pointer to a struct set by a call through its address (ERFA's eraDat:
   `NDAT = eraDatini(_changes, _NDAT, &changes);` picks the leap-second
   table, which other code may replace between calls; pointing it at the
   table where it is declared works). */
typedef struct { int iyear, month; double delat; } leap;
static leap *current;
static int pick(const leap *builtin, int n, leap **out) {
  if (!current)
    current = (leap *)builtin;
  *out = current;
  return n;
}
__attribute__((batch)) double f(int iy) {
  static const leap T[2] = {{1972, 1, 10.0}, {1973, 1, 12.0}};
  leap *changes;
  // CHECK: struct-ptr-set-by-call.c:[[@LINE-1]]:9: error: pointer to a struct 'changes' set through its address by 'pick' is not supported in a batch/diff function; a pointer is followed only from where it is declared: point it there at a table the function can see ('const leap *changes = table;', a static local or file-scope table of structs), or pass the table as a BD_UNIFORM array parameter
  int n = pick(T, 2, &changes), i;
  for (i = n - 1; i >= 0; i--)
    if (iy >= changes[i].iyear)
      break;
  return i < 0 ? 0.0 : changes[i].delat;
}
