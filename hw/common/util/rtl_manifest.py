#!/usr/bin/env python3
"""Reader of the RTL source manifests (hw/<ip>/data/*.f).

A manifest lists one source a line, relative to hw/ (the accelerator's
IPs) or, for a product outside hw/ (the SoC, soc/), to the repository
root: a path is looked up under hw/ first; ``-f FILE`` reads another
manifest (looked up the same way) at that point; ``#`` starts a comment. A file reached twice is listed once, at its first place. The
accelerator's list is hw/top/data/falcon_accel_top.f (every IP in order,
then the top); the SoC's own RTL is soc/data/soc.f.

Used by the cocotb testbenches (hw/common/dv/fa_cocotb.py), the synthesis
and SoC scripts (hw/syn/sources.sh, soc/sim/sim_sources.sh) and make lint;
cmake/rtl_manifest.cmake reads the same files for the Verilated backend.

    rtl_manifest.py MANIFEST...     absolute paths, one line, space-separated
    rtl_manifest.py --check         every hw/<ip>/rtl/*.v|*.sv is in a
                                    manifest, every listed file exists,
                                    falcon_accel_top.f names every IP
                                    manifest but the SoC's and test tops'
"""
import glob
import os
import sys

HW = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ROOT = os.path.dirname(HW)
TOP = "top/data/falcon_accel_top.f"
# Products outside hw/ with manifests of their own (the RTL under their
# rtl/, the manifests under their data/).
PRODUCTS = ("soc",)


def _resolve(rel):
    """Absolute path of a manifest entry: under hw/ if it is there, else
    under the repository root."""
    p = os.path.join(HW, rel)
    return p if os.path.exists(p) else os.path.join(ROOT, rel)


class ManifestError(Exception):
    pass


def _read(rel, out, seen, stack):
    path = _resolve(rel)
    if rel in stack:
        raise ManifestError("%s: includes itself (%s)" % (rel, " -> ".join(stack)))
    if rel in seen:
        return
    seen.add(rel)
    try:
        text = open(path).read()
    except OSError as e:
        raise ManifestError("%s: cannot read (%s)" % (rel, e.strerror))
    for n, line in enumerate(text.split("\n"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-f "):
            _read(line[3:].strip(), out, seen, stack + [rel])
            continue
        if " " in line or line.startswith("-"):
            raise ManifestError("%s:%d: not a path or -f line: %r" % (rel, n, line))
        src = _resolve(line)
        if not os.path.isfile(src):
            raise ManifestError("%s:%d: %s does not exist" % (rel, n, line))
        if src not in out:
            out.append(src)


def sources(*manifests):
    """Absolute paths of the sources the manifests (relative to hw/) name,
    in order, each once."""
    out, seen = [], set()
    for m in manifests:
        _read(m, out, seen, [])
    return out


def check():
    """Problems with the manifests as a list of strings (empty: none)."""
    errors = []
    listed = set()
    manifests = sorted(os.path.relpath(p, HW)
                       for p in glob.glob(os.path.join(HW, "*", "data", "*.f")))
    products = sorted(os.path.relpath(p, ROOT) for d in PRODUCTS
                      for p in glob.glob(os.path.join(ROOT, d, "data", "*.f")))
    for m in manifests + products:
        try:
            listed.update(sources(m))
        except ManifestError as e:
            errors.append(str(e))
    rtl = [f for pat in ("*/rtl/*.v", "*/rtl/*.sv")
           for f in glob.glob(os.path.join(HW, pat))]
    rtl += [f for d in PRODUCTS for pat in ("rtl/*.v", "rtl/*.sv")
            for f in glob.glob(os.path.join(ROOT, d, pat))]
    for f in sorted(rtl):
        if f not in listed:
            errors.append("%s is in no manifest (<ip>/data/<ip>.f)"
                          % os.path.relpath(f, ROOT))
    # The top's list reads every IP manifest but the SoC's and the test tops'.
    top_text = open(os.path.join(HW, TOP)).read()
    for m in manifests:
        if m == TOP or m.endswith("_unit.f"):
            continue
        if ("-f " + m) not in top_text:
            errors.append("%s is not read by %s" % (m, TOP))
    return errors


def main(argv):
    if argv[1:] == ["--check"]:
        errors = check()
        for e in errors:
            print("rtl_manifest: " + e, file=sys.stderr)
        return 1 if errors else 0
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        print(" ".join(sources(*argv[1:])))
    except ManifestError as e:
        print("rtl_manifest: " + str(e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
