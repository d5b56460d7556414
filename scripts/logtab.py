"""What gen-log-table.py, gen-flog-table.py and gen-log1pexp-table.py share:
the exact arithmetic of a table's polynomial, float constants in C and the
scripts' --update / --check."""
import sys
from decimal import Decimal as D
from fractions import Fraction as F

PI = D("3.14159265358979323846264338327950288419716939937510582097494")


def round_bits(x, b):
    """x rounded to b significant bits."""
    m, e = F(x), 0
    while m >= 2:
        m, e = m / 2, e + 1
    while m < 1:
        m, e = m * 2, e - 1
    q = F(2) ** (e - b + 1)
    return float(round(F(x) / q) * q)


def cos(x):
    s, t, n = D(0), D(1), 0
    while abs(t) > D(10) ** -58:
        s += t
        t = -t * x * x / ((n + 1) * (n + 2))
        n += 2
    return s


def on_grid(v, e):
    return float(round(v * D(2) ** e) / D(2) ** e)


def g(r):
    """(log1p(r) - r) / r^2 by its series, exact to 10^-45 for |r| <= 0.0345."""
    return sum(F((-1) ** (m + 1), m + 2) * r ** m for m in range(30))


def solve(m):
    """The solution of the linear system m (rows [a..., b]) by Gauss-Jordan
    elimination with partial pivoting, in m's own number type."""
    n = len(m)
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c] / m[c][c]
                m[r] = [m[r][k] - f * m[c][k] for k in range(n + 1)]
    return [m[i][n] / m[i][i] for i in range(n)]


def interp(deg, a):
    """The coefficients (exact rationals) of the polynomial of degree deg
    that interpolates g at the Chebyshev nodes of [-a, a]."""
    n = deg + 1
    xs = [F(cos(PI * (2 * j + 1) / (2 * n))) * a for j in range(n)]
    return solve([[x ** p for p in range(n)] + [g(x)] for x in xs])


def fhex(v):
    """A float constant in C: hex (no trailing zeros) with the f suffix."""
    if v == 0:
        return "0x0p+0f"
    m, e = v.hex().split("p")
    return m.rstrip("0").rstrip(".") + "p" + e + "f"


def main(text, out, script):
    """Prints text, or (--update) writes it to out, or (--check) fails when
    out differs from it."""
    if "--update" in sys.argv:
        with open(out, "w") as f:
            f.write(text)
    elif "--check" in sys.argv:
        with open(out) as f:
            if f.read() != text:
                sys.stderr.write("%s differs from scripts/%s's output: run it "
                                 "with --update\n" % (out, script))
                sys.exit(1)
    else:
        sys.stdout.write(text)
