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
