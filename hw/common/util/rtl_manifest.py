#!/usr/bin/env python3
"""Reader of the RTL source manifests (hw/<ip>/data/*.f).

A manifest lists one source a line, relative to hw/; ``-f FILE`` reads
another manifest (relative to hw/ as well) at that point; ``#`` starts a
comment. A file reached twice is listed once, at its first place. The
accelerator's list is hw/top/data/falcon_accel_top.f (every IP in order,
then the top); the SoC's own RTL is hw/soc/data/soc.f.

Used by the cocotb testbenches (hw/common/dv/fa_cocotb.py), the synthesis
and SoC scripts (hw/syn/sources.sh, hw/soc/sim_sources.sh) and make lint;
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
TOP = "top/data/falcon_accel_top.f"


class ManifestError(Exception):
    pass


def _read(rel, out, seen, stack):
    path = os.path.join(HW, rel)
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
        src = os.path.join(HW, line)
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
    for m in manifests:
        try:
            listed.update(sources(m))
        except ManifestError as e:
            errors.append(str(e))
    for pat in ("*/rtl/*.v", "*/rtl/*.sv"):
        for f in sorted(glob.glob(os.path.join(HW, pat))):
            if f not in listed:
                errors.append("%s is in no manifest (hw/<ip>/data/<ip>.f)"
                              % os.path.relpath(f, HW))
    # The top's list reads every IP manifest but the SoC's and the test tops'.
    top_text = open(os.path.join(HW, TOP)).read()
    for m in manifests:
        if m == TOP or m.startswith("soc/") or m.endswith("_unit.f"):
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
