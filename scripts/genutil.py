"""Helpers shared by the repository's generators (run through
scripts/autogen.py): writing a generator's outputs or checking that they
are fresh, and checking a generated fuzz corpus.

A generator computes {path: text} and calls write_or_check(); a corpus
generator calls check_corpus() for its --check. Import with
    sys.path.insert(0, os.path.join(ROOT, "scripts")); import genutil
"""
import filecmp
import os
import tempfile


def write_or_check(outputs, check, root, prog):
    """outputs: {absolute path: text}. Without check, writes the files whose
    text differs (printing each); with check, writes nothing and names the
    stale ones. Returns the exit status (1 when check finds a stale file)."""
    stale = []
    for path, text in outputs.items():
        old = None
        if os.path.exists(path):
            with open(path) as f:
                old = f.read()
        if old == text:
            continue
        if check:
            stale.append(os.path.relpath(path, root))
        else:
            with open(path, "w") as f:
                f.write(text)
            print("wrote", os.path.relpath(path, root))
    if stale:
        print("%s: stale (run python3 %s): %s" % (os.path.basename(prog), prog, " ".join(stale)))
        return 1
    return 0


def check_corpus(gen, subdirs, corpus):
    """Runs gen(tmpdir), which writes a corpus under tmpdir, and compares
    each subdir with corpus/subdir (same names, same bytes). Returns the
    differences, one string each."""
    diffs = []
    with tempfile.TemporaryDirectory() as tmp:
        gen(tmp)
        for sub in subdirs:
            a, b = os.path.join(tmp, sub), os.path.join(corpus, sub)
            names_a = set(os.listdir(a)) if os.path.isdir(a) else set()
            names_b = set(os.listdir(b)) if os.path.isdir(b) else set()
            for n in sorted(names_a ^ names_b):
                diffs.append("%s/%s %s" % (sub, n, "missing" if n in names_a else "not generated"))
            for n in sorted(names_a & names_b):
                if not filecmp.cmp(os.path.join(a, n), os.path.join(b, n), shallow=False):
                    diffs.append("%s/%s differs" % (sub, n))
    return diffs
