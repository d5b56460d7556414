#!/usr/bin/env python3
"""Checks the relative links of the repository's Markdown files.

Every inline link [text](target) whose target is not a URL must name a file
or directory that exists, and a '#anchor' must name a heading of the target
Markdown file (GitHub's slugs: lower case, punctuation dropped, spaces as
hyphens, '-1', '-2' ... for repeated headings). Links inside code spans and
fenced code blocks are skipped. Exit status 1 and one line per broken link
when any is broken (the test docs.links), so that moving a section (as
docs/subset.md's errors went to docs/errors.md) cannot leave a dead link.

    scripts/check-doc-links.py [ROOT]
"""
import os
import re
import sys

SKIP_DIRS = {".git", "node_modules"}
# As GitHub renders it: 'ops[k](x)' in prose is a link to x too; an escaped
# bracket, 'ops\[k\](x)', is none (nor, above, one in a code span).
LINK = re.compile(r"(?<!\\)\[(?:[^\]\\]|\\.)*\]\(([^()\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def markdown_files(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs
                         if x not in SKIP_DIRS and not x.startswith("_build")
                         and not x.startswith("build"))
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.join(d, f)


def prose_lines(path):
    """(line number, raw text, text with code spans blanked) outside fenced
    code; a code span may continue on the next line."""
    fence, in_span = None, False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            s = line.strip()
            m = re.match(r"^(```+|~~~+)", s)
            if m:
                if fence is None:
                    fence = m.group(1)[0] * 3
                elif s.startswith(fence):
                    fence = None
                continue
            if fence is not None:
                continue
            parts = line.split("`")
            prose = []
            for i, part in enumerate(parts):
                if i > 0:
                    in_span = not in_span
                prose.append("" if in_span else part)
            if not s:
                in_span = False  # a blank line ends a paragraph
            yield n, line, "``".join(prose)


def slug(text):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link: its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, out = {}, set()
        for _, line, _ in prose_lines(path):
            m = HEADING.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            k = seen.get(s, 0)
            seen[s] = k + 1
            out.add(s if k == 0 else "%s-%d" % (s, k))
        for _, line, _ in prose_lines(path):  # explicit <a id="..."> / name=
            out.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", line))
        cache[path] = out
    return cache[path]


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    bad = checked = 0
    for md in markdown_files(root):
        for n, _, line in prose_lines(md):
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                    continue  # http:, https:, mailto: ...
                checked += 1
                path, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) \
                    if path else md
                where = "%s:%d" % (os.path.relpath(md, root), n)
                if not os.path.exists(dest):
                    print("%s: link to a missing file: %s" % (where, target))
                    bad += 1
                elif anchor and dest.endswith(".md") and \
                        anchor not in anchors(dest):
                    print("%s: no heading '#%s' in %s" %
                          (where, anchor, os.path.relpath(dest, root)))
                    bad += 1
    if bad:
        print("check-doc-links: %d of %d relative links broken" % (bad, checked))
        return 1
    print("check-doc-links: all %d relative links resolve" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
