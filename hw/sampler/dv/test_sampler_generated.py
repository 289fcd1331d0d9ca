"""The sampler's generated constants (rtl/sampler_tables.v) are fresh:
regenerating them from scripts/gen_tables.py and src/inner.h gives the
file on disk, and they agree with the C library's tables (src/tables.c,
read independently of the generator)."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HW = os.path.abspath(os.path.join(HERE, "..", ".."))
ROOT = os.path.abspath(os.path.join(HW, ".."))


def test_sampler_tables_fresh():
    r = subprocess.run([sys.executable, os.path.join(HW, "sampler", "util", "gen_sampler_tables.py"),
                        "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_sampler_tables_match_c():
    vh = open(os.path.join(HW, "sampler", "rtl", "sampler_tables.v")).read()
    rcdt = [int(v, 16) for v in re.findall(r"72'h([0-9A-F]+)", vh)][::-1]
    expm = [int(v, 16) for v in re.findall(r"64'h([0-9A-F]+)", vh.split("expm_o = {")[1].split("};")[0])][::-1]
    c = open(os.path.join(ROOT, "src", "tables.c")).read()
    w = [int(v) for v in re.findall(r"(\d+)u", c.split("fa_rcdt[18 * 3] = {")[1].split("};")[0])]
    assert rcdt == [(w[3 * i] << 48) | (w[3 * i + 1] << 24) | w[3 * i + 2] for i in range(18)]
    e = [int(v, 16) for v in re.findall(r"0x([0-9A-F]+)u", c.split("fa_expm_coeffs[13] = {")[1].split("};")[0])]
    assert expm == e


def test_eln2_rom_is_the_product():
    """sampler_eln2_rom holds fpr_mul(fpr_of(e), FPR_LOG2) for every e: each
    entry against Python's IEEE product of float(e) and src/inner.h's
    FPR_LOG2 (read here, not through the generator), entries in order."""
    import struct
    vh = open(os.path.join(HW, "sampler", "rtl", "sampler_tables.v")).read()
    body = vh.split("module sampler_eln2_rom", 1)[1]
    ent = [(int(i), int(v, 16)) for i, v in re.findall(r"rom\[(\d+)\] = 64'h([0-9A-F]+);", body)]
    assert [i for i, _ in ent] == list(range(len(ent))) and len(ent) >= 289
    h = open(os.path.join(ROOT, "src", "inner.h")).read()
    ln2 = struct.unpack("<d", struct.pack("<Q", int(re.search(
        r"#define\s+FPR_LOG2\s+fpr_from_bits\(0x([0-9A-Fa-f]+)u\)", h).group(1), 16)))[0]
    for e, v in ent:
        assert v == struct.unpack("<Q", struct.pack("<d", float(e) * ln2))[0], e
