#!/usr/bin/env python3
"""Replaces one generated block of a Markdown file, keeping the rest.
Usage: scripts/bench/splice.py FILE NAME < block
The block sits between `<!-- NAME:start -->` and `<!-- NAME:end -->`; it is appended when the
file has none yet. `make bench`, `make soak` and `make fuzz` each own one block of
docs/benchmarks.md, so re-running one keeps the others' latest results."""
import os
import sys

path, name = sys.argv[1], sys.argv[2]
start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
block = f"{start}\n{sys.stdin.read().rstrip()}\n{end}\n"
text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
if start in text and end in text:
    before, rest = text.split(start, 1)
    after = rest.split(end, 1)[1].lstrip("\n")
    text = before + block + ("\n" + after if after else "")
else:
    text = text.rstrip() + ("\n\n" if text.strip() else "") + block
open(path, "w", encoding="utf-8").write(text)
