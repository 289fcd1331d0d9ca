#!/usr/bin/env python3
"""The one entry point of every generator of the repository.

    python3 scripts/autogen.py            regenerate every generated file
    python3 scripts/autogen.py --check    fail (exit 1) naming each stale one
    python3 scripts/autogen.py --list     the generators and what they write
    python3 scripts/autogen.py NAME...    only these (either mode)

(`make gen` / `make check-gen` at the root run the first two.) Each entry
of GENERATORS names its script and how it writes and checks:

- "stdout": the script prints the file; written by redirection, checked by
  comparison;
- "own": the script writes its outputs and has its own --check;
- "splice": the script prints Verilog case items (--verilog) that live
  between "// BEGIN NAME (generated" and "// END NAME" in a source file;
  written by replacing that region, checked by the script's --check FILE;
- "check": a consistency check only (nothing to write).

A generated file says so in its first line. New generators are added here,
so that `make check-gen` (run once by scripts/test.sh) covers them.
"""
import os
import re
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PY = sys.executable

# (name, kind, script and arguments, outputs or the spliced file)
GENERATORS = [
    # the library's tables
    ("tables", "stdout", ["scripts/gen_tables.py"], ["src/tables.c"]),
    ("ntru-primes", "stdout", ["scripts/gen_ntru_primes.py"], ["src/ntru_primes.c"]),
    ("ntt-tables", "stdout", ["scripts/gen_ntt_tables.py", "--stdout"], ["src/ntt_tables.c"]),
    ("privkey-check-tables", "stdout", ["scripts/gen_privkey_check_tables.py", "--stdout"],
     ["src/privkey_check_tables.c"]),
    ("mlkem-tables", "stdout", ["scripts/gen_mlkem_tables.py", "--stdout"],
     ["src/mlkem/mlkem_tables.c"]),
    ("fndsa-tables", "stdout", ["scripts/gen_fndsa_tables.py"], ["src/fndsa_tables.c"]),
    # the PKI object identifiers (data/oids.json)
    ("oids", "stdout", ["scripts/gen_oids.py"], ["include/falcon_accel_oids.h"]),
    ("avx2-tables", "stdout", ["src/backend_avx2/gen_avx2_tables.py"],
     ["src/backend_avx2/avx2_tables.c"]),
    ("avx2-mlkem-tables", "stdout", ["scripts/gen_mlkem_tables.py", "--avx2"],
     ["src/backend_avx2/avx2_mlkem_tables.c"]),
    # the rtl backend's kernel slots (FA_RTL_K_*, names)
    ("rtl-kernels", "own", ["src/backend_rtl/gen_rtl_kernels.py"],
     ["src/backend_rtl/fa_rtl_kernels.h"]),
    # the accelerator: ROMs, register map, tables, microcode
    ("hw-roms", "own", ["hw/common/util/gen_hw_tables.py"],
     ["hw/fft/rtl/fft_roots_rom.v", "hw/ntt/rtl/ntt_tw_rom.v"]),
    ("regmap", "own", ["hw/top/util/gen_regmap.py"], []),
    ("sampler-tables", "own", ["hw/sampler/util/gen_sampler_tables.py"], []),
    ("kem-tables", "own", ["hw/ntt/util/gen_kem_tables.py"], []),
    ("mlkem-rom", "own", ["hw/mlkem/util/gen_mlkem_rom.py"], []),
    ("ffsamp-node2-ucode", "splice", ["hw/ffsamp/util/node2_ucode.py"],
     ["hw/ffsamp/rtl/ffsamp_engine.v", "K_NODE2"]),
    ("ffsamp-mps-ucode", "splice", ["hw/ffsamp/util/mps_ucode.py"],
     ["hw/ffsamp/rtl/ffsamp_engine.v", "K_MPS"]),
    ("rtl-manifests", "check", ["hw/common/util/rtl_manifest.py", "--check"], []),
    ("hw-generated-values", "check",
     ["-m", "pytest", "-q", "-p", "no:cacheprovider", "hw/top/dv/test_generated.py"], []),
    # the SoC's address map (RTL package, firmware header, doc)
    ("socmap", "own", ["soc/util/gen_socmap.py"], []),
    # the SoC's host link protocol (firmware/host header, Python module, doc)
    ("soclink", "own", ["soc/util/gen_soclink.py"],
     ["soc/fw/soc_proto.h", "soc/host/soc_proto.py", "soc/doc/soclink.md"]),
    # the board runs' table in soc/boards/README.md (results/runs/*.json)
    ("board-runs-table", "own", ["soc/boards/runs_table.py", "--write"],
     ["soc/boards/README.md"]),
    # the SoC's board results page (results/boards.json, .md) from its records
    ("board-results", "own", ["soc/util/make_board_results.py"],
     ["results/boards.json", "results/boards.md"]),
    # the service: error names of the Python package
    ("py-errors", "own", ["service/python/gen_errors.py"], []),
    # fuzz corpora
    ("fuzz-corpus", "own", ["tests/fuzz/gen_corpus.py"], []),
    ("fido2-corpus", "own", ["apps/fido2/tests/gen_corpus.py"], []),
]


def run(args, **kw):
    return subprocess.run([PY] + args, cwd=ROOT, **kw)


def splice(text, name, items):
    """text with the lines between the BEGIN/END markers of name replaced
    by items, indented like the BEGIN marker."""
    m = re.search(r"(?m)^([ \t]*)// BEGIN %s \(generated[^\n]*\n(.*?)(?=^[ \t]*// END %s)"
                  % (name, name), text, re.S)
    if m is None:
        raise SystemExit("autogen: no '// BEGIN %s (generated' region" % name)
    indent = m.group(1)
    body = "".join(indent + line + "\n" for line in items)
    return text[:m.start(2)] + body + text[m.end(2):]


def generate(name, kind, cmd, outs):
    if kind == "stdout":
        r = run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            return "%s: %s failed: %s" % (name, cmd[0], r.stderr.strip())
        with open(os.path.join(ROOT, outs[0]), "w") as f:
            f.write(r.stdout)
    elif kind == "own":
        r = run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            return "%s: %s failed: %s" % (name, cmd[0], r.stderr.strip())
    elif kind == "splice":
        path, region = outs
        r = run(cmd + ["--verilog"], capture_output=True, text=True)
        if r.returncode != 0:
            return "%s: %s failed: %s" % (name, cmd[0], r.stderr.strip())
        full = os.path.join(ROOT, path)
        text = open(full).read()
        new = splice(text, region, [l.strip() for l in r.stdout.splitlines() if l.strip()])
        if new != text:
            with open(full, "w") as f:
                f.write(new)
    elif kind == "check":
        return check(name, kind, cmd, outs)
    return None


def check(name, kind, cmd, outs):
    if kind == "stdout":
        r = run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            return "%s: %s failed: %s" % (name, cmd[0], r.stderr.strip())
        try:
            have = open(os.path.join(ROOT, outs[0])).read()
        except OSError as e:
            return "%s: %s: %s" % (name, outs[0], e.strerror)
        if have != r.stdout:
            return "%s: %s is stale (python3 scripts/autogen.py %s)" % (name, outs[0], name)
        return None
    args = cmd + (["--check", outs[0]] if kind == "splice" else
                  [] if kind == "check" else ["--check"])
    r = run(args, capture_output=True, text=True)
    if r.returncode != 0:
        msg = (r.stderr.strip() or r.stdout.strip()).splitlines()
        return "%s: stale or inconsistent (%s)" % (name, msg[-1] if msg else "exit %d" % r.returncode)
    return None


def main(argv):
    mode_check = "--check" in argv
    if "--list" in argv:
        for name, kind, cmd, outs in GENERATORS:
            print("%-22s %-7s %-45s %s" % (name, kind, " ".join(cmd), " ".join(outs)))
        return 0
    names = [a for a in argv if not a.startswith("--")]
    known = {g[0] for g in GENERATORS}
    for n in names:
        if n not in known:
            print("autogen: no generator named %r (--list)" % n, file=sys.stderr)
            return 2
    errors = []
    ran = 0
    t0 = time.monotonic()
    for name, kind, cmd, outs in GENERATORS:
        if names and name not in names:
            continue
        ran += 1
        e = (check if mode_check or kind == "check" else generate)(name, kind, cmd, outs)
        if e:
            errors.append(e)
    for e in errors:
        print("autogen: " + e, file=sys.stderr)
    what = "checked" if mode_check else "regenerated"
    print("autogen: %d generator(s) %s, %d problem(s)" % (ran, what, len(errors)))
    # one test a generator, in the summary format scripts/test.sh counts
    print("%d passed, %d failed in %.1fs" % (ran - len(errors), len(errors),
                                              time.monotonic() - t0))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
