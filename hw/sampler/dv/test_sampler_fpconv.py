"""cocotb tests of sampler_f2i (fpr_trunc / fpr_floor) and sampler_i2f
(fpr_of) against the library's emulated FP (src/fpr_emu.c through
sampler_refmodel's shared object): edge values (integers, half-integers,
one ulp around them, zeros, subnormals, |x| near and beyond 2^63) and
random bit patterns.

Run: cd hw && python3 -m pytest -q sampler/dv/test_sampler_fpconv.py
"""
import ctypes
import os
import random
import struct
import sys

import cocotb
import pytest
from cocotb.triggers import Timer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sampler_refmodel as ref  # noqa: E402

M64 = (1 << 64) - 1


def f2b(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def lib():
    L = ref.lib()
    for fn in ("fa_fpr_floor", "fa_fpr_trunc"):
        getattr(L, fn).restype = ctypes.c_int64
        getattr(L, fn).argtypes = [ctypes.c_uint64]
    L.fa_fpr_scaled.restype = ctypes.c_uint64
    L.fa_fpr_scaled.argtypes = [ctypes.c_int64, ctypes.c_int]
    return L


def f2i_vectors(rng, n):
    v = [0, 1 << 63, 1, (1 << 63) | 1, 0x000FFFFFFFFFFFFF, f2b(2.0 ** 63), f2b(-(2.0 ** 63)),
         f2b(2.0 ** 64), f2b(1e300), f2b(-1e300), 0x7FF0000000000000]
    for k in (0, 1, 2, 3, 7, 12289, 2 ** 30, 2 ** 52, 2 ** 53, 2 ** 62):
        for x in (float(k), k + 0.5, -float(k), -(k + 0.5)):
            b = f2b(x)
            v += [b, (b + 1) & M64, (b - 1) & M64]
    for _ in range(n):
        c = rng.randrange(3)
        if c == 0:
            v.append(rng.getrandbits(64))
        elif c == 1:
            v.append(f2b(rng.uniform(-1e6, 1e6)))
        else:
            v.append((rng.getrandbits(1) << 63) | (rng.randint(1000, 1090) << 52) | rng.getrandbits(52))
    return v


@cocotb.test()
async def f2i_matches_fpr_emu(dut):
    L = lib()
    rng = random.Random(5)
    bad = 0
    for x in f2i_vectors(rng, int(os.environ.get("FA_NVEC", "2000"))):
        for fl in (0, 1):
            dut.f_i.value = x
            dut.floor_i.value = fl
            await Timer(1, "ns")
            got = int(dut.i_o.value)
            exp = (L.fa_fpr_floor(x) if fl else L.fa_fpr_trunc(x)) & M64
            if got != exp:
                bad += 1
                if bad < 10:
                    dut._log.error("%s(%016x) = %016x, library %016x",
                                   "floor" if fl else "trunc", x, got, exp)
    assert bad == 0


@cocotb.test()
async def i2f_matches_fpr_emu(dut):
    L = lib()
    rng = random.Random(6)
    vals = [0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 12289, -12289] + [
        rng.randint(-(2 ** 31), 2 ** 31 - 1) for _ in range(int(os.environ.get("FA_NVEC", "2000")))]
    bad = 0
    for i in vals:
        dut.i_i.value = i & 0xFFFFFFFF
        await Timer(1, "ns")
        got, exp = int(dut.f_o.value), L.fa_fpr_scaled(i, 0)
        if got != exp:
            bad += 1
            if bad < 10:
                dut._log.error("fpr_of(%d) = %016x, library %016x", i, got, exp)
    assert bad == 0


@pytest.mark.parametrize("top", ["sampler_f2i", "sampler_i2f"])
def test_sampler_fpconv(top):
    from fa_cocotb import ip_sources, run
    ref.build()
    run(top, ip_sources("sampler"), "test_sampler_fpconv", HERE,
        extra_env={"TESTCASE": "f2i_matches_fpr_emu" if top == "sampler_f2i" else "i2f_matches_fpr_emu",
                   "FA_NVEC": "20000" if os.environ.get("FA_HW_FULL") else "2000"})
