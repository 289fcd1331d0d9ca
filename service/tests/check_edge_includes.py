#!/usr/bin/env python3
"""The module graph of the edge library (service/edge) has no cycle.

A module is a source file and its header (edge_job.c + edge_job.h: the
module edge_job). Two graphs are checked, and both must be acyclic:

 - includes: module A depends on module B when a file of A includes B's
   header with #include "...";
 - calls: module A depends on module B when A's source names a function
   defined in B's source (a shared header that declares the functions of
   several sources hides such a cycle from the include graph).

A cycle (A's source uses B and B's uses A, possibly through other
modules) fails the check, naming the modules and the lines that close it.
The edge library is compiled with -Werror=implicit-function-declaration,
so a module calls only what the headers it includes declare.

    check_edge_includes.py [DIR]      check DIR (default: service/edge)
    check_edge_includes.py --graph    print the module graph, then check
    check_edge_includes.py --self-test
        the check itself: it must pass an acyclic tree and fail a cyclic one
"""
from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

# module -> {included module: "file:line" of the first such #include}
Graph = Dict[str, Dict[str, str]]


def module_graph(d: Path) -> Graph:
    files = sorted(p for p in d.iterdir() if p.suffix in (".c", ".h"))
    local = {p.name for p in files}
    g: Graph = {p.stem: {} for p in files}
    for p in files:
        for no, line in enumerate(p.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if m is None or m.group(1) not in local:
                continue      # a header outside the directory
            dep = Path(m.group(1)).stem
            if dep != p.stem:
                g[p.stem].setdefault(dep, f"{p.name}:{no}")
    return g


DEFINITION = re.compile(r"^([A-Za-z_]\w*)\(", re.M)
IDENT = re.compile(r"\b[A-Za-z_]\w*\b")


def _code(text: str) -> str:
    """The text without comments and string literals (lines kept)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def call_graph(d: Path) -> Graph:
    """Module -> modules whose functions its source names (a function is
    defined with its name at the start of a line, the code's style)."""
    srcs = sorted(p for p in d.iterdir() if p.suffix == ".c")
    code = {p: _code(p.read_text()) for p in srcs}
    owner: Dict[str, str] = {}
    for p in srcs:
        for m in DEFINITION.finditer(code[p]):
            owner.setdefault(m.group(1), p.stem)
    g: Graph = {p.stem: {} for p in srcs}
    for p in srcs:
        for no, line in enumerate(code[p].splitlines(), 1):
            for name in IDENT.findall(line):
                dep = owner.get(name)
                if dep is not None and dep != p.stem:
                    g[p.stem].setdefault(dep, f"{p.name}:{no} {name}")
    return g


def find_cycle(g: Graph) -> Optional[List[str]]:
    """A cycle as [m0, m1, ..., m0], or None."""
    state: Dict[str, int] = {}     # 1 on the path, 2 done
    path: List[str] = []

    def visit(m: str) -> Optional[List[str]]:
        state[m] = 1
        path.append(m)
        for dep in sorted(g.get(m, {})):
            if state.get(dep) == 1:
                return path[path.index(dep):] + [dep]
            if dep not in state:
                c = visit(dep)
                if c is not None:
                    return c
        path.pop()
        state[m] = 2
        return None

    for m in sorted(g):
        if m not in state:
            c = visit(m)
            if c is not None:
                return c
    return None


def check(d: Path, show: bool = False) -> Tuple[bool, str]:
    ok, lines = True, []
    for what, g in (("include", module_graph(d)), ("call", call_graph(d))):
        if show:
            lines.append(f"{what} graph:")
            for m in sorted(g):
                deps = ", ".join(sorted(g[m])) or "-"
                lines.append(f"  {m} -> {deps}")
        c = find_cycle(g)
        if c is None:
            lines.append(f"{d}: {len(g)} modules, no {what} cycle")
            continue
        ok = False
        steps = [f"{a} -> {b} ({g[a][b]})" for a, b in zip(c, c[1:])]
        lines.append(f"{d}: {what} cycle " + " -> ".join(c) + ": "
                     + "; ".join(steps))
    return ok, "\n".join(lines)


def self_test() -> bool:
    ok = True
    with tempfile.TemporaryDirectory() as t:
        d = Path(t)
        (d / "a.h").write_text('#include "base.h"\n')
        (d / "a.c").write_text('#include "a.h"\n#include "b.h"\n')
        (d / "b.h").write_text('#include <stdio.h>\n#include "base.h"\n')
        (d / "b.c").write_text('#include "b.h"\n#include "other.h"\n')
        (d / "base.h").write_text("")
        good, msg = check(d)
        print("self-test, acyclic:", msg)
        ok &= good
        # b's source now includes a's header: a -> b -> a.
        (d / "b.c").write_text('#include "b.h"\n#include "a.h"\n')
        good, msg = check(d)
        print("self-test, cyclic:", msg)
        ok &= not good and "include cycle a -> b -> a" in msg \
            and "b.c:2" in msg
        # One shared header, and sources calling each other's functions:
        # a.c -> b.c -> a.c, hidden from the include graph.
        (d / "b.c").write_text('#include "b.h"\n')
        (d / "shared.h").write_text("int fa(void);\nint fb(void);\n")
        (d / "a.c").write_text('#include "shared.h"\n/* fb( */\nint\n'
                               'fa(void)\n{\n\treturn fb();\n}\n')
        (d / "b.c").write_text('#include "shared.h"\nint\nfb(void)\n{\n'
                               '\treturn fa != 0;\n}\n')
        good, msg = check(d)
        print("self-test, call cycle:", msg)
        ok &= not good and "no include cycle" in msg \
            and "call cycle a -> b -> a" in msg and "a.c:6 fb" in msg \
            and "b.c:5 fa" in msg
    print("self-test:", "ok" if ok else "FAILED")
    return ok


def main(argv: List[str]) -> int:
    if argv[:1] == ["--self-test"]:
        return 0 if self_test() else 1
    show = "--graph" in argv
    rest = [a for a in argv if a != "--graph"]
    d = Path(rest[0]) if rest else \
        Path(__file__).resolve().parents[1] / "edge"
    good, msg = check(d, show)
    print(msg)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
