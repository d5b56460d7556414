"""Mutations of a C file for the crash fuzzer: text edits at token, statement
and line level, type changes, moved annotations and inserted C constructs.

mutate(rng, text) -> (text, [descriptions], stripped) where stripped says
that no batch/diff annotation is left (the identity oracle applies).
Every mutation works on the focus: one annotated function chosen at random.
"""
import csrc

TYPES = ["float", "int", "long double", "_Complex double", "char",
         "unsigned", "double", "short", "long long", "__int128", "_Bool",
         "unsigned char", "_Float16", "signed char", "unsigned long",
         "_Complex float", "void", "struct bdz", "int *", "double *",
         "size_t"]
TYPE_WORDS = {"double", "float", "int", "long", "char", "short", "unsigned",
              "signed", "_Bool", "size_t", "ptrdiff_t", "int64_t",
              "uint64_t", "int32_t", "uint32_t", "void"}
ANNOT = ["__attribute__((batch, diff))", "__attribute__((batch))",
         "__attribute__((diff))", "__attribute__((diff(forward)))",
         "__attribute__((diff(hvp)))", "__attribute__((diff(reverse)))",
         "__attribute__((batch(1)))", "__attribute__((diff(\"x\")))",
         "__attribute__((uniform))", "__attribute__((nodiff))",
         "__attribute__((ragged_offsets))", "__attribute__((ragged_pointers))",
         "[[batch]]", "[[diff]]", "[[clang::annotate(\"batch\")]]"]
FUNC_ATTRS = ["static", "inline", "static inline", "extern", "_Noreturn",
              "__attribute__((noinline))", "__attribute__((always_inline))",
              "__attribute__((optnone))", "__attribute__((cold))",
              "__attribute__((target(\"avx512f\")))", "__attribute__((weak))",
              "__attribute__((used))", "__attribute__((section(\".bdz\")))",
              "__attribute__((naked))", "__attribute__((const))",
              "__attribute__((pure))", "__attribute__((overloadable))",
              "__attribute__((vectorcall))", "__attribute__((ms_abi))",
              "__attribute__((nothrow))", "__attribute__((flatten))",
              "__attribute__((alias(\"bdz_alias\")))", "register", "auto",
              "__attribute__((uniform))", "__attribute__((nodiff))",
              "__attribute__((annotate(\"batch\")))"]

# Statement snippets: $X a floating lvalue, $I an integer value, $F the
# focus called with its own parameters, $U a fresh suffix. (needs, code).
STMTS = [
    ("", "{ int n$U = ($I) % 4 + 1; double v$U[n$U]; for (int i$U = 0; "
         "i$U < n$U; i$U++) v$U[i$U] = $X * i$U; $X = v$U[n$U - 1]; }"),
    ("", "$X = _Generic($X, float: $X * 2, double: $X * 3, default: $X);"),
    ("", "$X = __builtin_fabs($X) + __builtin_sqrt(__builtin_fabs($X));"),
    ("", "$X += __builtin_expect($I, 0);"),
    ("", "if (__builtin_isnan($X) || __builtin_isinf($X)) $X = 0;"),
    ("", "$X = __builtin_huge_val() - $X;"),
    ("", "$X = __builtin_copysign($X, -1.0);"),
    ("", "__builtin_prefetch(&$X);"),
    ("", "$X = __builtin_popcount((unsigned)$I) * $X;"),
    ("", "if ($X > 1e300) __builtin_unreachable();"),
    ("", "$X = __builtin_fma($X, $X, 1.0);"),
    ("", "__builtin_memcpy(&$X, &$X, sizeof $X);"),
    ("", "$X = __builtin_nan(\"\");"),
    ("", "if ($X > 1e308) __builtin_trap();"),
    ("", "$X = __builtin_constant_p($X) ? 1 : $X;"),
    ("", "$X = __builtin_choose_expr(1, $X, 0);"),
    ("", "__builtin_assume($I > 0);"),
    ("", "$X = __builtin_elementwise_abs($X);"),
    ("", "$X = __builtin_bit_cast(double, (long long)$I);"),
    ("", "$X = __builtin_fmax($X, __builtin_inf());"),
    ("", "$X += __builtin_clz((unsigned)$I | 1u) + __builtin_ctzll(1);"),
    ("", "__builtin_memset(&$X, 0, sizeof $X);"),
    ("", "$X = __builtin_ldexp($X, $I);"),
    ("", "$X = __builtin_frexp($X, &(int){0});"),
    ("", "{ int o$U; if (__builtin_add_overflow($I, 1, &o$U)) $X = 0; }"),
    ("", "__asm__ volatile(\"\" : \"+x\"($X));"),
    ("", "__asm__(\"nop\");"),
    ("", "__asm__ volatile(\"\" ::: \"memory\");"),
    ("", "asm goto(\"\" :::: l$U); l$U: $X += 1;"),
    ("", "{ double *a$U = __builtin_alloca(4 * sizeof(double)); a$U[0] = $X;"
         " $X = a$U[0]; }"),
    ("alloca", "{ double *a$U = alloca(sizeof(double)); *a$U = $X; "
               "$X = *a$U; }"),
    ("setjmp", "{ jmp_buf jb$U; if (setjmp(jb$U) == 0) $X += 1; }"),
    ("", "{ void *jb$U[5]; if (__builtin_setjmp(jb$U) == 0) $X += 1; }"),
    ("varargs", "$X = bdz_vasum(2, $X, 1.0);"),
    ("recursion", "$X = bdz_rec($X, 3);"),
    ("", "if ($X > 1e30) $F;"),
    ("math", "{ double (*fp$U)(double) = sin; $X = fp$U($X); }"),
    ("", "{ double (*fp$U)(double) = 0; if (fp$U) $X = fp$U($X); }"),
    ("", "{ void *l$U = &&lab$U; goto *l$U; lab$U: $X += 1; }"),
    ("", "{ static void *t$U[] = { &&la$U, &&lb$U }; goto *t$U[$I & 1]; "
         "la$U: $X += 1; lb$U:; }"),
    ("", "{ struct { unsigned a : 3; int b : 5; } bf$U = { 1, 2 }; "
         "bf$U.a = $I; $X += bf$U.a + bf$U.b; }"),
    ("", "{ _Atomic double a$U = $X; $X = a$U + 1; }"),
    ("", "{ _Atomic int a$U = $I; a$U++; $X += a$U; }"),
    ("", "{ volatile double v$U = $X; $X = v$U * 2; }"),
    ("", "{ _Complex double z$U = $X + 2.0 * __builtin_complex(0.0, 1.0); "
         "$X = __real__ (z$U * z$U) + __imag__ z$U; }"),
    ("", "{ _Complex float z$U = $X; z$U *= z$U; $X = __builtin_crealf(z$U);"
         " }"),
    ("", "{ __int128 q$U = (__int128)$I * $I; $X += (double)q$U; }"),
    ("", "{ unsigned __int128 q$U = $X; $X = q$U >> 3; }"),
    ("", "{ long double l$U = $X; l$U *= 3.0L; $X = (double)l$U; }"),
    ("", "{ _Float16 h$U = $X; $X = h$U * h$U; }"),
    ("", "$X = ({ double t$U = $X; t$U * t$U; });"),
    ("", "double nf$U(double a) { return a * 2; } $X = nf$U($X);"),
    ("", "{ double big$U[1 << 20]; big$U[$I & 1023] = $X; "
         "$X = big$U[$I & 1023]; }"),
    ("", "{ static double s$U[1 << 24]; s$U[$I & 7] = $X; $X = s$U[0]; }"),
    ("", "{ double z$U[0]; (void)z$U; }"),
    ("", "{ double d$U[100000000000]; $X = d$U[0]; }"),
    ("", "register double r$U = $X; $X = r$U;"),
    ("knr", "$X = bdz_knr($X, 2);"),
    ("", "$X = *(double *)&$X;"),
    ("", "$X += sizeof($X) + _Alignof(double);"),
    ("", "$X = ((double[]){ $X, 1.0 })[$I & 1];"),
    ("", "$X += \"abc\"[$I & 1];"),
    ("", "$X = ($I, $X);"),
    ("global", "bdz_g = $X;"),
    ("global", "$X += bdz_g++;"),
    ("", "static double st$U = 0; st$U += $X; $X = st$U;"),
    ("", "$X = $X / 0.0 + 1 / 1;"),
    ("", "{ int z$U = $I / 0; $X += z$U; }"),
    ("", "for (;;) { if ($X > 0) break; $X += 1; }"),
    ("", "while (1) {}"),
    ("", "for (;;) ;"),
    ("", "do { $X += 1; continue; } while ($X < 0);"),
    ("", "$X += (double)($I << 40);"),
    ("", "switch ($I) { case 0: $X += 1; case 1 ... 3: $X *= 2; break; "
         "default:; }"),
    ("", "switch ($I) { default: $X += 1; { case 7: $X -= 1; } }"),
    ("", "__attribute__((uniform)) double u$U = $X; $X = u$U;"),
    ("", "__auto_type t$U = $X; $X = t$U;"),
    ("", "__typeof__($X) t$U = $X; $X = t$U + 1;"),
    ("", "_Static_assert(1, \"x\");"),
    (";", ";;;"),
    ("", "return;"),
    ("", "return $X;"),
    ("", "$X = bdz_undeclared($X);"),
    ("", "{ union { double d; long long l; } u$U = { $X }; u$U.l ^= 1; "
         "$X = u$U.d; }"),
    ("", "{ union { double d; char c[8]; } u$U; u$U.d = $X; u$U.c[7] = 0; "
         "$X = u$U.d; }"),
    ("", "{ struct { double a, b; } s$U = { $X, 2 }, t$U = s$U; "
         "$X = t$U.a * t$U.b; }"),
    ("", "goto e$U; e$U: ;"),
    ("", "{ double *p$U = &$X; *p$U += 1; p$U++; }"),
    ("", "{ double *p$U = &$X; $X = p$U[0] + *(p$U + 0); }"),
    ("", "{ char *p$U = (char *)&$X; p$U[1] = 0; }"),
    ("", "{ double a$U[3] = {0}; double *q$U = a$U; q$U[$I] = $X; "
         "$X = a$U[2]; }"),
    ("", "{ int i$U = 0; double a$U[4]; a$U[i$U++] = $X; a$U[-1] = 0; }"),
    ("", "$X = -(-(-$X));"),
    ("", "$X = $X ? : 1.0;"),
    ("", "$X = (float)$X + (long double)$X + (_Bool)$X + (char)$X;"),
    ("", "$X = (double)(unsigned long long)$X;"),
    ("", "$X += 0x1p-1074 + 1e-320 + 0x1.fffffffffffffp+1023;"),
    ("", "$X = $X == $X ? $X : __builtin_nan(\"1\");"),
    ("", "{ double x$U = $X; x$U++; --x$U; $X = x$U--; }"),
    ("", "$X = !$X + ~$I;"),
    ("", "$X = (int)$X % 3;"),
    ("", "$X = ($I > 0) ? 1 : 2.0f;"),
    ("", "{ const double c$U = $X; $X = c$U; }"),
    ("", "{ extern double bdz_ext; $X += bdz_ext; }"),
    ("", "{ extern double bdz_extf(double); $X = bdz_extf($X); }"),
    ("", "_Pragma(\"clang loop unroll(full)\") for (int i$U = 0; i$U < 4; "
         "i$U++) $X += i$U;"),
    ("pragma", "\n#pragma clang fp contract(off)\n$X = $X * $X + 1;"),
    ("pragma", "\n#pragma omp simd\nfor (int i$U = 0; i$U < 4; i$U++) "
               "$X += i$U;"),
    ("pragma", "\n#pragma GCC unroll 4\nfor (int i$U = 0; i$U < 4; i$U++) "
               "$X *= 0.5;"),
    ("pragma", "\n#pragma STDC FENV_ACCESS ON\n$X += 1;"),
    ("pragma", "\n#pragma float_control(precise, off)\n$X += 1;"),
    ("pragma", "\n#pragma clang diagnostic ignored \"-Wall\"\n$X += 1;"),
    ("pragma", "\n#pragma STDC FP_CONTRACT ON\n$X = $X * $X + $X;"),
    ("", "{ int k$U = 0; lbl$U: if (++k$U < 3) goto lbl$U; $X += k$U; }"),
    ("", "$X = (double)(long double)(float)(int)(char)$X;"),
    ("", "__builtin_va_list ap$U; (void)ap$U;"),
    ("", "$X = __builtin_va_arg(0, double);"),
    ("", "__label__ q$U; q$U: $X += 1;"),
    ("", "{ typedef double bdz_t$U[2]; bdz_t$U t$U = { $X }; $X = t$U[1]; }"),
    ("", "{ enum { A$U = 3, B$U } e$U = B$U; $X *= e$U; }"),
    ("", "{ double m$U[2][3] = {{$X}}; $X = m$U[1][2] + m$U[$I & 1][0]; }"),
    ("", "{ float f$U[3][3][3][3] = {0}; $X += f$U[1][1][1][1]; }"),
    ("", "$X = __builtin_isgreater($X, 1.0) ? __builtin_signbit($X) : 0;"),
    ("", "$X = __builtin_expect_with_probability($I, 1, 0.5);"),
    ("", "__builtin_dump_struct(&(struct { int a; }){1}, __builtin_printf);"),
    ("", "(void)__builtin_return_address(0);"),
    ("", "(void)__builtin_frame_address(0);"),
    ("", "$X += __builtin_offsetof(struct { int a; double b; }, b);"),
    ("", "$X = __builtin_addressof($X)[0];"),
    ("", "$X = __builtin_readcyclecounter();"),
    ("", "__builtin_ia32_pause();"),
    ("", "{ typedef double v$U __attribute__((vector_size(16))); v$U w$U = "
         "{ $X, 1 }; $X = w$U[0] + w$U[1]; }"),
    ("", "{ typedef float e$U __attribute__((ext_vector_type(4))); e$U w$U ="
         " $X; $X = w$U.x + w$U.w; }"),
    ("", "$X = __builtin_shufflevector((double __attribute__((vector_size("
         "16)))){$X, 1}, (double __attribute__((vector_size(16)))){2, 3}, "
         "0, 3)[1];"),
    ("", "{ __auto_type p$U = &$X; *p$U = 1; }"),
    ("", "$X = $X < 0 ? -$X : $X < 1 ? $X * $X : $X > 2 ? 2 : $X;"),
    # features added since the fuzzer last ran at scale: long double locals
    # (the function or helper runs per example), per-example choices of
    # functions, globals written on some paths, large locals in the arena
    # with VLAs, the inline budget
    ("ldhelper", "$X = bdz_ldh($X, $I);"),
    ("ldhelper", "if ($X > 0.5) $X += bdz_ldh($X * 0.5, 3);"),
    ("", "{ long double l$U = 0; for (int i$U = 0; i$U < 3; i$U++) "
         "l$U += $X; $X = (double)l$U; }"),
    ("math", "{ double (*fp$U)(double) = $X > 0 ? sin : cos; "
             "$X = fp$U($X); }"),
    ("math", "$X = ($I > 1 ? exp : tanh)($X * 0.1);"),
    ("math", "{ static double (*const t$U[2])(double) = { exp, tanh }; "
             "$X = t$U[$I & 1]($X * 0.1); }"),
    ("fnptr", "{ double (*fp$U)(double) = bdz_fa; if ($X > 0) fp$U = "
              "bdz_fb; double (*gp$U)(double) = fp$U; "
              "$X = gp$U($X) + fp$U(0.5 * $X); }"),
    ("fnptr", "{ double (*f$U)(double) = bdz_fa; double (*g$U)(double) = "
              "bdz_fb; if ($I > 1) f$U = g$U; else g$U = f$U; "
              "$X = f$U($X) * g$U($X); }"),
    ("fnptr", "$X = bdz_fapply($X > 1 ? bdz_fa : bdz_fb, $X);"),
    ("fnptr", "{ double (*f$U)(double); if ($X > 0) f$U = bdz_fa; "
              "$X = f$U($X); }"),
    ("global", "if ($X > 1.0) bdz_g = $X;"),
    ("global", "if ($X < 0.0) { bdz_g = $X; $X = 0; } $X += bdz_g;"),
    ("global", "for (int i$U = 0; i$U < $I; i$U++) if ($X > i$U) "
               "bdz_g = i$U;"),
    ("", "{ double big$U[700]; for (int i$U = 0; i$U < 700; i$U++) "
         "big$U[i$U] = $X * i$U; $X = big$U[$I & 511]; }"),
    ("", "{ int n$U = ($I & 15) + 1; double big$U[700], v$U[n$U]; "
         "for (int i$U = 0; i$U < n$U; i$U++) v$U[i$U] = big$U[i$U] = "
         "$X + i$U; $X = v$U[n$U - 1] + big$U[0]; }"),
    ("", "{ int n$U = ($I & 3) + 1; float v$U[n$U][3]; double big$U[2][400];"
         " big$U[1][0] = $X; v$U[0][0] = (float)$X; "
         "$X = big$U[1][0] + v$U[n$U - 1][0]; }"),
    ("explode", "$X = bdz_x12($X);"),
    ("explode", "$X = bdz_x18($X);"),
]

TOPLEVEL = {
    "alloca": "#include <alloca.h>\n",
    "setjmp": "#include <setjmp.h>\n",
    "varargs": "#include <stdarg.h>\nstatic double bdz_vasum(int n, ...) "
               "{ va_list ap; va_start(ap, n); double s = 0; for (int i = 0;"
               " i < n; i++) s += va_arg(ap, double); va_end(ap); "
               "return s; }\n",
    "recursion": "static double bdz_rec(double x, int n) { return n <= 0 ? "
                 "x : bdz_rec(x * 0.5, n - 1) + 1; }\n",
    "math": "#include <math.h>\n",
    "knr": "static double bdz_knr(a, b) double a; int b; "
           "{ return a * b; }\n",
    "global": "double bdz_g;\n",
    "ldhelper": "static double bdz_ldh(double a, int n) { long double s = a;"
                " for (int i = 0; i < n && i < 8; i++) s = s * 0.5L + a; "
                "return (double)s; }\n",
    "fnptr": "static double bdz_fa(double a) { return a * a; }\n"
             "static double bdz_fb(double a) { return a * 0.5 + 1.0; }\n"
             "static double bdz_fapply(double (*f)(double), double a) "
             "{ return f(a) + f(-a); }\n",
    # helpers calling the one before twice: 2^k inlined bodies (k = 18 is
    # past the inline budget: an error at the call, not minutes of lowering)
    "explode": "static double bdz_x0(double a) { return a * a + 1.0; }\n" +
               "".join("static double bdz_x%d(double a) { return bdz_x%d(a)"
                       " + bdz_x%d(-a); }\n" % (k, k - 1, k - 1)
                       for k in range(1, 19)),
}


def deep_expr(rng, x):
    d = rng.choice([50, 300, 1000, 3000])
    op = rng.choice(["+", "*", "-", "/"])
    if rng.random() < 0.5:
        return "%s = %s%s%s;" % (x, "(" * d, x, (" %s 1.0)" % op) * d)
    return "%s = %s;" % (x, (" %s " % op).join([x] * d))


def deep_block(rng, x):
    d = rng.choice([50, 200, 1000])
    kind = rng.choice(["{", "if", "for", "?"])
    if kind == "{":
        return "{" * d + "%s += 1;" % x + "}" * d
    if kind == "if":
        return "if (%s > 0) " % x * d + "%s += 1;" % x
    if kind == "for":
        return "".join("for (int i%d = 0; i%d < 1; i%d++) " % (k, k, k)
                       for k in range(min(d, 200))) + "%s += 1;" % x
    # (a gradient's chain of 1,000 took 20 s in LLVM's InstCombine before
    # the AD modes merged long chains' masks, found/README.md)
    return "%s = %s%s;" % (x, "".join("%s > %d ? %d : " % (x, k, k)
                                      for k in range(d)), x)


def long_ident(rng, x):
    n = rng.choice([255, 1000, 10000])
    name = "v" + "x" * n
    return "double %s = %s; %s = %s * 2;" % (name, x, x, name)


class Ctx:
    """The file being mutated, its tokens, functions and the focus."""

    def __init__(self, rng, text):
        self.rng, self.text = rng, text
        self.toks = csrc.lex(text)
        self.match = csrc.match_brackets(self.toks)
        self.funcs = csrc.functions(self.toks, self.match)
        ann = [f for f in self.funcs if f.annotated]
        self.focus = rng.choice(ann) if ann else (
            rng.choice(self.funcs) if self.funcs else None)
        self.uid = rng.randrange(10000)

    def ftoks(self):
        f = self.focus
        return range(f.head, f.rbrace + 1) if f else range(len(self.toks))

    def params(self):
        """[(type words, name, is pointer)] of the focus (best effort)."""
        f = self.focus
        if not f:
            return []
        lp = f.name_tok + 1
        rp = self.match[lp]
        out, cur = [], []
        for t in self.toks[lp + 1:rp] + [csrc.Tok("punct", ",", 0, 0)]:
            if t.text == "," and cur:
                ids = [x.text for x in cur if x.kind == "id"]
                words = [x.text for x in cur]
                if ids:
                    out.append((words, ids[-1], "*" in words or "[" in words))
                cur = []
            else:
                cur.append(t)
        return out

    def lvalue(self):
        fl = [n for w, n, p in self.params()
              if not p and ("double" in w or "float" in w)]
        return self.rng.choice(fl) if fl else None

    def ivalue(self):
        iv = [n for w, n, p in self.params() if not p and
              any(k in w for k in ("int", "long", "unsigned", "size_t"))]
        return self.rng.choice(iv) if iv else str(self.rng.choice([0, 3, -1]))

    def call_self(self):
        f = self.focus
        names = [n for w, n, p in self.params()]
        return "%s(%s)" % (f.name, ", ".join(names))

    def body_stmts(self):
        f = self.focus
        return csrc.statements(self.toks, self.match, f.lbrace, f.rbrace) \
            if f else []

    def span(self, a, b):
        return self.toks[a].start, self.toks[b].end


def edit(text, start, end, new):
    return text[:start] + new + text[end:]


def m_del_tokens(c):
    r = list(c.ftoks())
    a = c.rng.choice(r)
    b = min(a + c.rng.choice([0, 0, 1, 2, 3, 5, 8]), r[-1])
    s, e = c.span(a, b)
    return edit(c.text, s, e, ""), "delete tokens %r" % c.text[s:e][:60]


def m_del_stmt(c):
    st = c.body_stmts()
    if not st:
        return None
    a, b = c.rng.choice(st)
    s, e = c.span(a, b)
    return edit(c.text, s, e, ""), "delete statement %r" % c.text[s:e][:60]


def m_del_line(c):
    lines = c.text.split("\n")
    if c.focus and c.rng.random() < 0.7:
        lo = c.text.count("\n", 0, c.toks[c.focus.head].start)
        hi = c.text.count("\n", 0, c.toks[c.focus.rbrace].start)
    else:
        lo, hi = 0, len(lines) - 1
    k = c.rng.randint(lo, hi)
    n = c.rng.choice([1, 1, 1, 2, 4])
    d = lines[k:k + n]
    return "\n".join(lines[:k] + lines[k + n:]), "delete lines %d-%d %r" % (
        k + 1, k + n, "\\n".join(d)[:60])


def m_dup_stmt(c):
    st = c.body_stmts()
    if not st:
        return None
    a, b = c.rng.choice(st)
    s, e = c.span(a, b)
    return edit(c.text, e, e, " " + c.text[s:e]), \
        "duplicate statement %r" % c.text[s:e][:60]


def m_swap_stmt(c):
    st = c.body_stmts()
    if len(st) < 2:
        return None
    (a1, b1), (a2, b2) = sorted(c.rng.sample(st, 2))
    if b1 >= a2:
        return None
    s1, e1 = c.span(a1, b1)
    s2, e2 = c.span(a2, b2)
    t = c.text
    return t[:s1] + t[s2:e2] + t[e1:s2] + t[s1:e1] + t[e2:], \
        "swap statements %r and %r" % (t[s1:e1][:40], t[s2:e2][:40])


def m_change_type(c):
    idx = [i for i in c.ftoks() if c.toks[i].text in TYPE_WORDS]
    if not idx:
        return None
    i = c.rng.choice(idx)
    new = c.rng.choice(TYPES)
    t = c.toks[i]
    return edit(c.text, t.start, t.end, new), "type %s -> %s (token %d)" % (
        t.text, new, i)


def m_const(c):
    idx = [i for i in c.ftoks() if c.toks[i].text == "const"]
    if idx and c.rng.random() < 0.5:
        t = c.toks[c.rng.choice(idx)]
        return edit(c.text, t.start, t.end, ""), "remove const"
    idx = [i for i in c.ftoks() if c.toks[i].text in TYPE_WORDS]
    if not idx:
        return None
    t = c.toks[c.rng.choice(idx)]
    where = c.rng.choice(["before", "after"])
    pos = t.start if where == "before" else t.end
    return edit(c.text, pos, pos, " const "), "add const %s %s" % (where,
                                                                   t.text)


def m_declarator(c):
    """Add or remove '*', '[N]' around a declared name."""
    idx = [i for i in c.ftoks() if c.toks[i].kind == "id" and i > 0 and
           (c.toks[i - 1].text in TYPE_WORDS or c.toks[i - 1].text == "*")]
    if not idx:
        return None
    i = c.rng.choice(idx)
    t = c.toks[i]
    r = c.rng.random()
    if r < 0.3:
        return edit(c.text, t.start, t.start, "*"), "add * to %s" % t.text
    if r < 0.45 and c.toks[i - 1].text == "*":
        p = c.toks[i - 1]
        return edit(c.text, p.start, p.end, ""), "remove * of %s" % t.text
    if r < 0.6 and i + 1 < len(c.toks) and c.toks[i + 1].text == "[":
        j = c.match[i + 1]
        if j > i:
            s, e = c.toks[i + 1].start, c.toks[j].end
            return edit(c.text, s, e, ""), "remove [] of %s" % t.text
    n = c.rng.choice(["0", "1", "3", "1000000", "", "static 2", "*",
                      c.ivalue(), "-1", "1.5"])
    return edit(c.text, t.end, t.end, "[%s]" % n), "add [%s] to %s" % (
        n, t.text)


def m_static(c):
    idx = [i for i in c.ftoks() if c.toks[i].text == "static"]
    if idx and c.rng.random() < 0.4:
        t = c.toks[c.rng.choice(idx)]
        return edit(c.text, t.start, t.end, ""), "remove static"
    st = c.body_stmts()
    decl = [s for s in st if c.toks[s[0]].text in TYPE_WORDS | {"const"}]
    if decl and c.rng.random() < 0.6:
        s, _ = c.span(*c.rng.choice(decl))
        return edit(c.text, s, s, "static "), "static local"
    s = c.toks[c.focus.head].start if c.focus else 0
    attr = c.rng.choice(FUNC_ATTRS)
    return edit(c.text, s, s, attr + " "), "function gets %s" % attr


def strip_all(text):
    toks = csrc.lex(text)
    match = csrc.match_brackets(toks)
    spans = csrc.annotation_spans(toks, match, 0, len(toks))
    for s, e in reversed(spans):
        text = text[:s] + text[e:]
    return text


def m_annotation(c):
    r = c.rng.random()
    f = c.focus
    if r < 0.15:
        return strip_all(c.text), "strip every annotation"
    if r < 0.3 and f:
        spans = csrc.annotation_spans(c.toks, c.match, f.head, f.lbrace)
        t = c.text
        for s, e in reversed(spans):
            t = t[:s] + t[e:]
        return t, "remove the annotation of %s" % f.name
    a = c.rng.choice(ANNOT)
    others = [g for g in c.funcs if not g.annotated]
    if r < 0.5 and others:
        g = c.rng.choice(others)
        s = c.toks[g.head].start
        return edit(c.text, s, s, a + " "), "annotate %s with %s" % (g.name,
                                                                     a)
    if r < 0.6 and f:
        # a prototype of the focus, annotated, before its definition
        s = c.toks[f.head].start
        head = c.text[s:c.toks[f.lbrace].start].rstrip()
        if ";" in head:  # K&R
            return None
        return edit(c.text, s, s, "%s %s;\n" % (a, head)), \
            "annotated prototype of %s" % f.name
    if r < 0.7:
        s = c.toks[f.head].start if f else 0
        snip = c.rng.choice([
            "%s double bdz_var;\n", "%s static const double bdz_tab[2] = "
            "{1, 2};\n", "typedef double %s bdz_real;\n",
            "typedef %s double (*bdz_fn)(double);\n",
            "struct bdz_s { double a %s; };\n", "%s double bdz_proto(double);"
            "\n", "%s void bdz_noargs();\n", "enum %s bdz_e { BDZ_A };\n",
            "%s;\n", "%s double bdz_proto2(double x) __asm__(\"bdz2\");\n"])
        return edit(c.text, s, s, snip % a), "top-level %r" % (snip % a)
    st = c.body_stmts()
    if r < 0.85 and st:
        s, _ = c.span(*c.rng.choice(st))
        return edit(c.text, s, s, a + " "), "statement/local gets %s" % a
    if f:
        ps = c.params()
        if ps:
            lp = f.name_tok + 1
            k = c.rng.randrange(len(ps))
            # after the k-th parameter's name
            names = [i for i in range(lp, c.match[lp])
                     if c.toks[i].text == ps[k][1]]
            if names:
                t = c.toks[names[-1]]
                return edit(c.text, t.end, t.end, " " + a), \
                    "parameter %s gets %s" % (ps[k][1], a)
    return None


def m_insert(c):
    f = c.focus
    if not f:
        return None
    x = c.lvalue()
    r = c.rng.random()
    if r < 0.1:
        code = deep_expr(c.rng, x or "bdz_x")
        needs = ""
    elif r < 0.2:
        code = deep_block(c.rng, x or "bdz_x")
        needs = ""
    elif r < 0.25:
        code = long_ident(c.rng, x or "bdz_x")
        needs = ""
    else:
        needs, code = c.rng.choice(STMTS)
    if x is None:
        code = "double bdz_x = 1.0; " + code.replace("$X", "bdz_x")
    code = code.replace("$X", x or "bdz_x").replace("$I", c.ivalue())
    code = code.replace("$F", c.call_self()).replace("$U", str(c.uid))
    st = c.body_stmts()
    if st and c.rng.random() < 0.8:
        a, b = c.rng.choice(st)
        pos = c.toks[a].start if c.rng.random() < 0.5 else c.toks[b].end
    else:
        pos = c.toks[f.lbrace].end
    text = edit(c.text, pos, pos, " " + code + " ")
    if needs in TOPLEVEL:
        s = c.toks[f.head].start
        text = text[:s] + TOPLEVEL[needs] + text[s:]
    return text, "insert %r" % code[:80]


def m_signature(c):
    f = c.focus
    if not f:
        return None
    lp = f.name_tok + 1
    rp = c.match[lp]
    ps = c.params()
    r = c.rng.random()
    if r < 0.25:
        pos = c.toks[rp].start
        add = ", ..." if ps else "int bdz_n, ..."
        return edit(c.text, pos, pos, add), "variadic %s" % f.name
    if r < 0.5 and ps and c.toks[rp + 1].text == "{" and \
            all("(" not in w and "[" not in w for w, n, p in ps):
        # K&R definition
        names = ", ".join(n for w, n, p in ps)
        decls = " ".join(" ".join(w) + ";" for w, n, p in ps)
        s, e = c.toks[lp].start, c.toks[rp].end
        return edit(c.text, s, e, "(%s) %s" % (names, decls)), \
            "K&R definition of %s" % f.name
    if r < 0.6:
        s, e = c.toks[lp].start, c.toks[rp].end
        return edit(c.text, s, e, "()"), "no parameters (C89 ())"
    if r < 0.75 and ps:
        w, n, p = c.rng.choice(ps)
        quals = c.rng.choice(["register", "volatile", "_Atomic",
                              "restrict", "static", "__restrict"])
        idx = [i for i in range(lp + 1, rp) if c.toks[i].text == n]
        if idx:
            t = c.toks[idx[-1]]
            if quals == "restrict":
                return edit(c.text, t.start, t.start, "restrict "), \
                    "restrict %s" % n
            # before the parameter's first word
            j = idx[-1]
            while j > lp + 1 and c.toks[j - 1].text != ",":
                j -= 1
            s = c.toks[j].start
            return edit(c.text, s, s, quals + " "), "%s %s" % (quals, n)
    # a new parameter
    pos = c.toks[rp].start
    typ = c.rng.choice(["double bdz_p", "float bdz_q[3]", "int bdz_k",
                        "double *bdz_o", "const double bdz_a[bdz_m]",
                        "struct { double a; } bdz_s", "long double bdz_l",
                        "_Complex double bdz_z", "void (*bdz_f)(void)",
                        "double bdz_vla[*]", "int bdz_m, double bdz_v[bdz_m]",
                        "enum { BDZ_E0, BDZ_E1 } bdz_e",
                        "const struct bdz_t { double a; } *bdz_t"])
    sep = ", " if ps else ""
    if not ps and c.toks[rp - 1].text == "void":
        t = c.toks[rp - 1]
        return edit(c.text, t.start, t.end, typ), "parameter %s" % typ
    return edit(c.text, pos, pos, sep + typ), "parameter %s" % typ


MATH_FNS = ["sin", "cos", "exp", "log", "sqrt", "fabs", "tanh", "floor"]


def m_long_double(c):
    """A declaration's double (or float) becomes long double: a local makes
    the function (or helper) run per example; a parameter or result is an
    error at its location."""
    fl = [i for i in range(len(c.toks)) if c.toks[i].text in
          ("double", "float") and (i == 0 or c.toks[i - 1].text != "long")]
    if not fl:
        return None
    decl = [i for i in fl if i == 0 or c.toks[i - 1].text in
            (";", "{", "}", "(", ",", "const", "static", "register")]
    mine = [i for i in (decl or fl) if i in c.ftoks()]
    pool = mine if mine and c.rng.random() < 0.6 else (decl or fl)
    i = c.rng.choice(pool)
    t = c.toks[i]
    return edit(c.text, t.start, t.end, "long double"), \
        "%s -> long double (token %d)" % (t.text, i)


def m_swap_fname(c):
    """A function's name where it is used (a value for a function pointer,
    a call) becomes another function's: per-example choices among other
    candidates, signatures that do not match, the focus itself."""
    names = sorted({f.name for f in c.funcs} | set(MATH_FNS))
    defs = {f.name_tok for f in c.funcs}
    uses = [i for i in range(len(c.toks)) if c.toks[i].kind == "id" and
            c.toks[i].text in names and i not in defs and
            (i == 0 or c.toks[i - 1].text not in TYPE_WORDS | {"*"})]
    if not uses:
        return None
    vals = [i for i in uses if i + 1 < len(c.toks) and
            c.toks[i + 1].text != "("]
    i = c.rng.choice(vals if vals and c.rng.random() < 0.7 else uses)
    t = c.toks[i]
    new = c.rng.choice([n for n in names if n != t.text] or names)
    return edit(c.text, t.start, t.end, new), "function name %s -> %s" % (
        t.text, new)


def m_move_helper(c):
    """A function defined before the focus moves after it, leaving its
    prototype (or nothing: an implicit declaration) where it was."""
    f = c.focus
    if not f:
        return None
    before = [g for g in c.funcs if g is not f and g.rbrace < f.head]
    if not before:
        return None
    g = c.rng.choice(before)
    s, e = c.toks[g.head].start, c.toks[g.rbrace].end
    head = c.text[s:c.toks[g.lbrace].start].rstrip()
    proto = head + ";" if ";" not in head and c.rng.random() < 0.75 else ""
    fe = c.toks[f.rbrace].end
    t = c.text
    return t[:s] + proto + t[e:fe] + "\n" + t[s:e] + t[fe:], \
        "move %s after %s%s" % (g.name, f.name,
                                 " (prototype left)" if proto else "")


def m_vla(c):
    """A local array's constant extent becomes a run-time one (a VLA, from
    the arena when the function has large locals too)."""
    r = list(c.ftoks()) if c.rng.random() < 0.7 else range(len(c.toks))
    T = c.toks
    idx = [i for i in r if T[i].kind == "id" and i + 3 < len(T) and
           T[i + 1].text == "[" and T[i + 2].kind == "num" and
           T[i + 3].text == "]" and i > 0 and
           (T[i - 1].text in TYPE_WORDS or T[i - 1].text in ("*", ","))]
    if not idx:
        return None
    i = c.rng.choice(idx)
    n = T[i + 2]
    iv = c.ivalue()
    new = c.rng.choice(["%s" % iv, "(%s) + %s" % (iv, n.text),
                        "((%s) & 7) + 1" % iv, "%s > 0 ? %s : 1" % (iv, iv)])
    return edit(c.text, n.start, n.end, new), "VLA %s[%s]" % (T[i].text,
                                                                new)


MUTATIONS = [
    (m_del_tokens, 3), (m_del_stmt, 3), (m_del_line, 2), (m_dup_stmt, 2),
    (m_swap_stmt, 2), (m_change_type, 4), (m_const, 1), (m_declarator, 3),
    (m_static, 2), (m_annotation, 4), (m_insert, 8), (m_signature, 2),
    (m_long_double, 2), (m_swap_fname, 2), (m_move_helper, 2), (m_vla, 2),
]


def mutate(rng, text, max_steps=3):
    """Apply 1..max_steps mutations; returns (text, descriptions)."""
    desc = []
    steps = rng.choice([1, 1, 1, 2, 2, max_steps])
    fns = [m for m, w in MUTATIONS for _ in range(w)]
    tries = 0
    while len(desc) < steps and tries < 20:
        tries += 1
        c = Ctx(rng, text)
        if not c.toks:
            break
        m = rng.choice(fns)
        try:
            out = m(c)
        except (IndexError, ValueError, RecursionError):
            out = None
        if out:
            text, d = out
            desc.append("%s: %s" % (m.__name__[2:], d))
    return text, desc


def has_annotation(text):
    toks = csrc.lex(text)
    return bool(csrc.annotation_spans(toks, csrc.match_brackets(toks), 0,
                                      len(toks)))


def focus_only(rng, text):
    """Keep one annotated function annotated (compile time); the others
    become plain C."""
    toks = csrc.lex(text)
    match = csrc.match_brackets(toks)
    ann = [f for f in csrc.functions(toks, match) if f.annotated]
    if len(ann) <= 1:
        return text
    keep = rng.choice(ann)
    spans = []
    for f in ann:
        if f is not keep:
            spans += csrc.annotation_spans(toks, match, f.head, f.lbrace)
    for s, e in sorted(spans, reverse=True):
        text = text[:s] + text[e:]
    return text

