"""A small C lexer and structure finder for the crash fuzzer (stdlib only).

Good enough for mutating real C files: tokens keep their offsets in the
text, so every mutation is a text edit; preprocessor lines and comments are
skipped; top-level function definitions and the statements of their bodies
are found by bracket matching.  Nothing here needs to be exact: a wrong
guess only makes a mutant that clang rejects, which is a test input too.
"""
import re

TOKEN_RE = re.compile(r"""
    (?P<ws>[ \t\r\f\v]+|\n)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[0-9a-zA-Z_.])*)
  | (?P<id>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<punct>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|\#\#|[][(){};,.?:~!%^&*+\-/<>=|\#@\\$`])
""", re.X | re.S)


class Tok:
    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind, text, start, end):
        self.kind, self.text, self.start, self.end = kind, text, start, end

    def __repr__(self):
        return "Tok(%s,%r)" % (self.kind, self.text)


def lex(src):
    """Tokens of src outside comments and preprocessor lines."""
    toks = []
    pos, n = 0, len(src)
    line_start = True
    while pos < n:
        if line_start:
            # A preprocessor directive runs to an unescaped newline.
            m = re.match(r"[ \t]*#", src[pos:pos + 200])
            if m:
                end = pos
                while True:
                    nl = src.find("\n", end)
                    if nl < 0:
                        end = n
                        break
                    if nl > 0 and src[nl - 1] == "\\":
                        end = nl + 1
                        continue
                    end = nl
                    break
                pos = end
                continue
        m = TOKEN_RE.match(src, pos)
        if not m:
            pos += 1  # a stray byte: skip it
            line_start = False
            continue
        kind = m.lastgroup
        if kind == "ws":
            line_start = m.group() == "\n"
        elif kind == "comment":
            line_start = False
        else:
            toks.append(Tok(kind, m.group(), m.start(), m.end()))
            line_start = False
        pos = m.end()
    return toks


OPEN = {"(": ")", "[": "]", "{": "}"}


def match_brackets(toks):
    """match[i] = index of the bracket closing/opening toks[i] (or -1)."""
    match = [-1] * len(toks)
    stack = []
    for i, t in enumerate(toks):
        if t.text in OPEN:
            stack.append(i)
        elif t.text in (")", "]", "}"):
            if stack and OPEN[toks[stack[-1]].text] == t.text:
                j = stack.pop()
                match[i], match[j] = j, i
    return match


ANNOT_MACROS = ("BATCHDIFF", "BD_BATCH", "BD_DIFF", "BD_JVP", "BD_HVP")
ANNOT_WORDS = ("batch", "diff")


class Func:
    """A top-level function definition: header token range and body."""

    def __init__(self, name, name_tok, head, lbrace, rbrace, annotated):
        self.name, self.name_tok = name, name_tok
        self.head, self.lbrace, self.rbrace = head, lbrace, rbrace
        self.annotated = annotated

    def __repr__(self):
        return "Func(%s%s)" % (self.name, " annotated" if self.annotated
                               else "")


def annotation_spans(toks, match, lo, hi):
    """(start, end) text spans of batch/diff annotations in toks[lo:hi]:
    the macros, and __attribute__((...)) lists naming batch or diff."""
    spans = []
    i = lo
    while i < hi:
        t = toks[i]
        if t.text in ANNOT_MACROS:
            spans.append((t.start, t.end))
        elif t.text in ("__attribute__", "__attribute") and i + 1 < hi and \
                toks[i + 1].text == "(" and match[i + 1] > 0:
            j = match[i + 1]
            inner = [x.text for x in toks[i + 2:j]]
            if any(w in inner or "__%s__" % w in inner for w in ANNOT_WORDS):
                spans.append((t.start, toks[j].end))
            i = j
        i += 1
    return spans


def functions(toks, match):
    """Top-level function definitions (K&R ones too)."""
    out = []
    i, n = 0, len(toks)
    head = 0  # first token of the current top-level declaration
    while i < n:
        t = toks[i]
        if t.text == ";":
            head = i + 1
        elif t.text in ("(", "["):
            i = match[i] if match[i] > i else i
        elif t.text == "{":
            close = match[i]
            if close < 0:
                return out
            # A function body follows ')' (possibly attributes / K&R
            # declarations between); a struct/enum/initializer does not.
            is_func = False
            name_tok = None
            j = head
            while j < i:
                if toks[j].kind == "id" and j + 1 < i and \
                        toks[j + 1].text == "(" and match[j + 1] > j and \
                        toks[j].text not in ("__attribute__", "__attribute",
                                             "__declspec", "__typeof__",
                                             "typeof", "_Alignas",
                                             "__asm__", "asm"):
                    if name_tok is None:
                        name_tok = j
                if toks[j].text in ("(", "["):
                    j = match[j] if match[j] > j else j
                j += 1
            prev = toks[i - 1].text if i > 0 else ""
            heads = [x.text for x in toks[head:i]]
            if name_tok is not None and "=" not in heads and \
                    not (heads and heads[-1] in ("struct", "union", "enum")) \
                    and (prev == ")" or prev == ";" or
                         toks[i - 1].kind == "id"):
                if not any(w in ("struct", "union", "enum") and
                           k + 1 < len(heads) and heads[k + 1] != "" and
                           k + 2 < len(heads) and heads[k + 2] == "{"
                           for k, w in enumerate(heads)):
                    is_func = "typedef" not in heads
            if is_func:
                ann = bool(annotation_spans(toks, match, head, i))
                out.append(Func(toks[name_tok].text, name_tok, head, i,
                                close, ann))
                i = close
                head = close + 1
            else:
                i = close
        i += 1
    return out


def statements(toks, match, lbrace, rbrace):
    """(first, last) token index ranges of the statements directly inside
    the block toks[lbrace]..toks[rbrace], and of every nested block."""
    out = []
    i = lbrace + 1
    start = i
    while i < rbrace:
        t = toks[i].text
        if t == "(" or t == "[":
            i = max(match[i], i)
        elif t == "{":
            close = match[i]
            if close < 0 or close > rbrace:
                return out
            out += statements(toks, match, i, close)
            nxt = toks[close + 1].text if close + 1 < rbrace else ""
            first = toks[start].text
            if nxt == "else" or (nxt == "while" and first == "do"):
                i = close
            elif nxt == ";" or (first in ("struct", "union", "enum",
                                          "typedef") or
                                (i > start and toks[i - 1].text == "=")):
                i = close  # a declaration: its ';' ends it
            else:
                out.append((start, close))
                start = close + 1
                i = close
        elif t == ";":
            out.append((start, i))
            start = i + 1
        i += 1
    return [(a, b) for a, b in out if a <= b]


def lines_of(src):
    return src.split("\n")
