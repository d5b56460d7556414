/* Writing into an array of structs that is a member of a global struct
   (reading it works: it is read in place, as musl's log reads
   __log_data.tab[i].invc). */
struct data {
  double k;
  struct { double a, b; } t[4];
};
struct data D;
__attribute__((batch, diff)) double f(double x, int i) {
  D.t[i].a = x;
  // CHECK: global-member-table-write.c:[[@LINE-1]]:3: error: writing into global table of structs 'D.t' is not supported in a batch/diff function; global structs and tables of structs are only read; copy the record into a local struct, or pass the data as a parameter
  return D.t[i].b * x + D.k;
}
