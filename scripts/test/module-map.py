#!/usr/bin/env python3
"""Prints each library crate's module map (which top-level module uses which) and fails on a cycle.

Usage: scripts/test/module-map.py [--markdown | --write DOC | --check DOC] [CRATE_DIR...]
       (default: every crate with src/lib.rs)

A module is a top-level child of `src/lib.rs` (a file `src/x.rs` or a folder `src/x/`); an
arrow `a -> b` means some file of `a` names `crate::b` (in a path or a `use crate::{...}`
group). Modules must point one way: any cycle between top-level modules exits 1 with the
cycle named (run by `make lint`). `--markdown` prints the map as a Markdown list; `--write DOC`
puts that list between `<!-- module-map:start -->` and `<!-- module-map:end -->` in DOC
(`make module-map`), and `--check DOC` fails when DOC's list is not the current one.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def declared_modules(root_file):
    lib = strip_comments(root_file.read_text())
    return re.findall(rf"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+({IDENT})\s*;", lib, flags=re.M)


def files_of(src, module):
    single = src / f"{module}.rs"
    files = [single] if single.exists() else []
    folder = src / module
    if folder.is_dir():
        files += sorted(folder.rglob("*.rs"))
    return files


def brace_group_heads(text, start):
    """Top-level identifiers of the `{...}` group opening at text[start]."""
    depth, heads, token, i = 0, [], "", start
    while i < len(text):
        c = text[i]
        if c == "{":
            depth += 1
            if depth == 1:
                token = ""
                i += 1
                continue
        elif c == "}":
            depth -= 1
            if depth == 0:
                break
        if depth == 1:
            if c == ",":
                token = ""
            elif re.match(r"[A-Za-z0-9_]", c) and not token.endswith("::"):
                token += c
                continue_match = re.match(rf"{IDENT}", text[i + 1:])
                if not continue_match:
                    heads.append(token)
                    token = "::"  # the rest of this item is not a head
            elif c == ":":
                token = "::"
        i += 1
    return heads


def uses(src, module, modules, prefix=r"\bcrate::"):
    found = set()
    for path in files_of(src, module):
        text = strip_comments(path.read_text())
        for m in re.finditer(rf"{prefix}({IDENT}|\{{)", text):
            if m.group(1) == "{":
                found.update(brace_group_heads(text, m.end() - 1))
            else:
                found.add(m.group(1))
    return sorted(found & set(modules) - {module})


def module_files(src):
    """Every file module of the library: its path (a tuple of names) and its file."""
    found = {}
    for path in sorted(src.rglob("*.rs")):
        rel = path.relative_to(src)
        if rel.parts[0] in ("bin", "main.rs", "lib.rs"):
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "mod":
            parts.pop()
        found[tuple(parts)] = path
    return found


def use_paths(text, at):
    """Full paths named after `crate::`, `super::` or `self::` (use-groups expanded)."""
    out = []
    for m in re.finditer(r"\b(crate|super|self)((?:::super)*)::", text):
        base, supers = m.group(1), m.group(2).count("super")
        if base == "crate":
            root = []
        else:
            root = list(at)
            for _ in range((1 if base == "super" else 0) + supers):
                root = root[:-1]
        for tail in expand(text, m.end()):
            out.append(tuple(root + tail))
    return out


def expand(text, i):
    """The paths of the use-tree starting at text[i] (a path, or a {group})."""
    m = re.match(rf"((?:{IDENT}::)*)({IDENT}|\{{)", text[i:])
    if not m:
        return []
    prefix = [p for p in m.group(1).split("::") if p]
    if m.group(2) != "{":
        return [prefix + [m.group(2)]]
    j, depth, start, items = i + m.end(), 1, i + m.end(), []
    while j < len(text) and depth:
        c = text[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if (c == "," and depth == 1) or depth == 0:
            items.append((start, j))
            start = j + 1
        j += 1
    paths = []
    for a, _ in items:
        k = a
        while k < len(text) and text[k] in " \n\t":
            k += 1
        paths += [prefix + t for t in expand(text, k)]
    return paths or [prefix]


def file_cycle(src):
    """A cycle between file modules that are not nested in one another, or None."""
    files = module_files(src)
    graph = {mod: set() for mod in files}
    for mod, path in files.items():
        at = mod if path.name != "mod.rs" else mod
        # In `a/b.rs` or `a/b/mod.rs`, `super` is `a` and `self` is `a::b`.
        for target in use_paths(strip_comments(path.read_text()), at):
            for n in range(len(target), 0, -1):
                if target[:n] in files:
                    dep = target[:n]
                    nested = dep[: len(mod)] == mod or mod[: len(dep)] == dep
                    if not nested:
                        graph[mod].add(dep)
                    break
    named = {"::".join(k): sorted("::".join(d) for d in v) for k, v in graph.items()}
    return find_cycle(named)


def find_cycle(graph):
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in graph[node]:
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = "done"
        return None

    for node in graph:
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def main(argv):
    doc_mode, doc = None, None
    if argv and argv[0] in ("--write", "--check"):
        doc_mode, doc, argv = argv[0], pathlib.Path(argv[1]), argv[2:]
    if doc_mode:
        import contextlib
        import io

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = main(["--markdown", *argv])
        return status or sync_doc(doc, out.getvalue(), doc_mode == "--write")
    markdown = "--markdown" in argv
    dirs = [pathlib.Path(a) for a in argv if not a.startswith("--")]
    if not dirs:
        dirs = sorted(p.parent.parent for p in ROOT.glob("*/*/src/lib.rs"))
    failed = False
    for crate in dirs:
        src = crate / "src"
        modules = declared_modules(src / "lib.rs")
        graph = {m: uses(src, m, modules) for m in modules}
        name = crate.resolve().relative_to(ROOT)
        if markdown:
            print(f"- `{name}`")
            for m in modules:
                arrows = ", ".join(f"`{d}`" for d in graph[m]) or "(nothing of the crate)"
                print(f"  - `{m}` → {arrows}")
        else:
            print(f"{name}:")
            for m in modules:
                print(f"  {m} -> {', '.join(graph[m]) or '-'}")
        cycle = find_cycle(graph)
        if cycle:
            failed = True
            print(f"module-map: cycle in {name}: {' -> '.join(cycle)}", file=sys.stderr)
        # File by file: no cycle between modules that are not nested in one another.
        cycle = file_cycle(src)
        if cycle:
            failed = True
            print(f"module-map: cycle in {name} (files): {' -> '.join(cycle)}", file=sys.stderr)
    return 1 if failed else 0


def sync_doc(doc, block, write):
    start, end = "<!-- module-map:start -->", "<!-- module-map:end -->"
    text = doc.read_text()
    if start not in text or end not in text:
        print(f"module-map: {doc} has no {start} ... {end} block", file=sys.stderr)
        return 1
    before, rest = text.split(start, 1)
    current, after = rest.split(end, 1)
    wanted = "\n" + block.rstrip() + "\n"
    if current == wanted:
        return 0
    if write:
        doc.write_text(before + start + wanted + end + after)
        return 0
    print(f"module-map: the module map in {doc} is out of date: run `make module-map`", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
