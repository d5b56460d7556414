/* A tiny bytecode interpreter: enums, unions, varargs, #pragma pack,
 * bit-fields, inline asm-free volatile counters, static locals. */
#include <stdarg.h>
#include <stdio.h>

enum op { OP_PUSH, OP_ADD, OP_MUL, OP_PRINT, OP_HALT };

#pragma pack(push, 1)
struct insn {
  unsigned op : 4;
  unsigned flags : 4;
  union {
    int i;
    float f;
  } arg;
};
#pragma pack(pop)

static volatile unsigned long executed;

static void trace(const char *fmt, ...) {
  static int depth;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%*s", depth * 2, "");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

int run(const struct insn *code, int *stack, int cap) {
  int sp = 0;
  for (const struct insn *pc = code;; pc++) {
    executed++;
    switch ((enum op)pc->op) {
    case OP_PUSH:
      if (sp == cap)
        return -1;
      stack[sp++] = pc->arg.i;
      break;
    case OP_ADD:
      sp--;
      stack[sp - 1] += stack[sp];
      break;
    case OP_MUL:
      sp--;
      stack[sp - 1] *= stack[sp];
      break;
    case OP_PRINT:
      if (pc->flags & 1)
        trace("top = %d\n", stack[sp - 1]);
      break;
    case OP_HALT:
      return sp ? stack[sp - 1] : 0;
    }
  }
}
