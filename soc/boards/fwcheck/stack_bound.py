#!/usr/bin/env python3
"""A bound on the firmware's own stack above and below the library.

    stack_bound.py [--exclude NAME ...] FILE.ci ...

Reads gcc -fcallgraph-info=su output of the firmware's files and the
register driver and prints two depths (bytes, static frames summed along
the deepest call chain; recursion cut):
  link    fw_link_run down to the request handler (its indirect call
          cfg->serve resolved to serve, the PING word to accel_id), the
          handler's own frames included; library calls count 0 (measured
          apart, stack_use.c)
  kernel  the deepest of the accelerator modes' kernel entry points
          (fw_accel.c's acc_* functions, called by the library through the
          kernel table) with the driver below them, indirect calls (the
          transport: MMIO, DMA, cycle counter) resolved to the deepest
          transport function; --exclude drops entry points the
          configuration never installs (acc_ffsampling without the
          ffSampling engine, ...)
"""
import re
import sys
from functools import lru_cache

nodes, edges = {}, {}
files = []
excl = set()
args = sys.argv[1:]
while args:
    a = args.pop(0)
    if a == "--exclude":
        excl.add(args.pop(0))
    else:
        files.append(a)
for fn in files:
    for line in open(fn):
        m = re.match(r'node: \{ title: "([^"]+)" label: "([^\\"]+)\\n[^"]*?(\d+) bytes', line)
        if m:
            nodes[m.group(1)] = (m.group(2), int(m.group(3)))
            continue
        m = re.match(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"', line)
        if m:
            edges.setdefault(m.group(1), []).append(m.group(2))


def short(t):
    return nodes[t][0] if t in nodes else t


def by_name(name):
    return [t for t in nodes if short(t) == name]


TRANSPORT = {"mmio_tr_wr", "mmio_tr_rd", "tr_cycles", "dma_burst_wr", "dma_burst_rd"}


def depth(start, indirect):
    """deepest chain from start; indirect: the nodes an indirect call may reach"""
    best = {}

    def go(t, stack):
        if t in stack:
            return 0, []
        if t == "__indirect_call":
            alts = [go(x, stack) for x in indirect]
            return max(alts, default=(0, []))
        if t not in nodes:
            return 0, []           # a library or picolibc function: measured apart
        if t in best:
            return best[t]
        sub = [go(x, stack | {t}) for x in edges.get(t, [])]
        d, path = max(sub, default=(0, []))
        r = (nodes[t][1] + d, [f"{short(t)}({nodes[t][1]})"] + path)
        best[t] = r
        return r
    return go(start, frozenset())


transport = [t for t in nodes if short(t) in TRANSPORT]
tdepth = max((depth(t, [])[0] for t in transport), default=0)
serve = by_name("serve") + by_name("accel_id")
link = max((depth(t, serve) for t in by_name("fw_link_run")), default=(0, []))
entries = [t for t in nodes if short(t).startswith("acc_") and short(t) not in excl]
kern = max((depth(t, transport) for t in entries), default=(0, []))
print(f"link {link[0]} {' > '.join(link[1])}")
print(f"kernel {kern[0]} {' > '.join(kern[1])}")
