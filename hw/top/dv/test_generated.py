"""The generated files (C header, Verilog defines, docs, ROMs) agree with
their sources: regenerating them gives the files on disk."""
import os
import subprocess
import sys

HW = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def test_regmap_outputs_fresh():
    r = subprocess.run([sys.executable, os.path.join(HW, "top", "util", "gen_regmap.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_roms_fresh():
    sys.path.insert(0, os.path.join(HW, "common", "util"))
    import gen_hw_tables as g
    assert open(os.path.join(HW, "fft", "rtl", "fft_roots_rom.v")).read() == g.fft_rom()
    assert open(os.path.join(HW, "ntt", "rtl", "ntt_tw_rom.v")).read() == g.ntt_rom()


def test_header_matches_json():
    """Independent of the generator: every register offset of the JSON is
    in the C header with the same value."""
    import json
    rm = json.load(open(os.path.join(HW, "top", "data", "regmap.json")))
    hdr = open(os.path.join(HW, "..", "src", "backend_rtl", "fa_rtl_regs.h")).read()
    for r in rm["registers"]:
        assert "#define FA_RTL_REG_%s 0x%04Xu" % (r["name"], r["offset"]) in hdr
    for w in rm["windows"]:
        assert "#define FA_RTL_WIN_%s 0x%04Xu" % (w["name"], w["offset"]) in hdr
