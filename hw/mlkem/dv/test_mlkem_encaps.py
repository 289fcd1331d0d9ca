"""cocotb tests of mlkem_encaps, the ML-KEM-768 encapsulation sequencer,
against the C library (mlkem_refmodel.py: fa_kem_encaps_derand through
ctypes) and the stored NIST ACVP / Wycheproof encaps vectors:
  vectors        ACVP and Wycheproof ML-KEM-768 encaps records: ct (its
                 SHA3-256, as stored) and K; ek failing the modulus
                 check -> ERR_EK, no result readable
  random         random key pairs (library keygen) and random m: ct and K
                 byte-identical to the library's
  constant_time_and_illegal  one ek, two m: the same cycle count; bad
                 levels, start while busy (refused, the running operation
                 completes correctly), writes while busy, addresses
                 outside the map, ct/K before a result
  watchdog       (build with WDOG = 500) an operation past the limit is
                 aborted with ERR_WDOG and the block accepts the next one
Run: cd hw && python3 -m pytest mlkem/dv/test_mlkem_encaps.py -q
(FA_HW_FULL=1: every stored vector and more random inputs)."""
import hashlib
import os
import random
import subprocess
import sys

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

import mlkem_refmodel as ref

FULL = bool(os.environ.get("FA_HW_FULL"))
ERR_NONE, ERR_BUSY, ERR_LEVEL, ERR_EK, ERR_WDOG = 0, 1, 2, 3, 4
A_EK, A_M, A_CT, A_K = 0x000, 0x128, 0x200, 0x310


def words(b):
    return [int.from_bytes(b[i:i + 4], "little") for i in range(0, len(b), 4)]


class EncapsTB:
    """Drives mlkem_encaps's start/level inputs and host word port."""

    def __init__(self, dut):
        self.dut = dut

    async def reset(self):
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, "ns").start())
        d.rst_ni.value = 0
        for sig in (d.start_i, d.level_i, d.h_en_i, d.h_we_i, d.h_addr_i, d.h_wdata_i):
            sig.value = 0
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        await RisingEdge(d.clk_i)

    async def write(self, addr, ws):
        """Write words; returns how many were refused (h_err_o)."""
        d = self.dut
        errs = 0
        for i, w in enumerate(ws):
            d.h_en_i.value, d.h_we_i.value, d.h_addr_i.value, d.h_wdata_i.value = 1, 1, addr + i, w
            await RisingEdge(d.clk_i)
            d.h_en_i.value, d.h_we_i.value = 0, 0
            await ReadOnly()
            errs += int(d.h_err_o.value)
            await RisingEdge(d.clk_i)
        return errs

    async def read(self, addr, n):
        """Read n words; returns (bytes, refused count)."""
        d = self.dut
        out, errs = [], 0
        for i in range(n):
            d.h_en_i.value, d.h_we_i.value, d.h_addr_i.value = 1, 0, addr + i
            await RisingEdge(d.clk_i)
            d.h_en_i.value = 0
            await ReadOnly()
            out.append(int(d.h_rdata_o.value))
            errs += int(d.h_err_o.value)
            await RisingEdge(d.clk_i)
        return b"".join(w.to_bytes(4, "little") for w in out), errs

    async def start(self, level=1):
        d = self.dut
        d.start_i.value, d.level_i.value = 1, level
        await RisingEdge(d.clk_i)
        d.start_i.value = 0

    async def wait_done(self, limit=400000):
        d = self.dut
        for _ in range(limit):
            await ReadOnly()
            if int(d.done_o.value):
                err, cyc = int(d.err_o.value), int(d.cycles_o.value)
                await RisingEdge(d.clk_i)
                return err, cyc
            await RisingEdge(d.clk_i)
        raise AssertionError("no done_o within %d cycles" % limit)

    async def encaps(self, ek, m):
        assert await self.write(A_EK, words(ek)) == 0
        assert await self.write(A_M, words(m)) == 0
        await self.start()
        err, cyc = await self.wait_done()
        if err != ERR_NONE:
            return err, cyc, None, None
        ct, e1 = await self.read(A_CT, 272)
        k, e2 = await self.read(A_K, 8)
        assert e1 == 0 and e2 == 0
        return err, cyc, ct, k


def _keypair(rng):
    return ref.keygen(bytes(rng.randrange(256) for _ in range(32)),
                      bytes(rng.randrange(256) for _ in range(32)))[0]


@cocotb.test()
async def vectors(dut):
    tb = EncapsTB(dut)
    await tb.reset()
    recs = [r for r in ref.vectors() if len(r["ek"]) == ref.EK]
    assert len(recs) >= 20, "stored ML-KEM-768 encaps vectors missing"
    if not FULL:
        recs = [r for r in recs if r["valid"]][:1] + [r for r in recs if not r["valid"]][:1]
    nval = ninv = 0
    for r in recs:
        err, cyc, ct, k = await tb.encaps(r["ek"], r["m"])
        lib_rc = ref.encaps(r["ek"], r["m"])[0]
        if r["valid"]:
            assert err == ERR_NONE, "%s: err %d" % (r["id"], err)
            assert hashlib.sha3_256(ct).hexdigest() == r["c_h"], "%s: ct differs" % r["id"]
            assert k.hex() == r["K"], "%s: K differs" % r["id"]
            nval += 1
            dut._log.info("%s: ok, %d cycles", r["id"], cyc)
        else:
            assert err == ERR_EK and lib_rc != 0, "%s: err %d (library rc %d)" % (r["id"], err, lib_rc)
            _, e = await tb.read(A_K, 1)
            assert e == 1, "K readable after a rejected ek"
            ninv += 1
    assert nval > 0 and ninv > 0


@cocotb.test()
async def random_inputs(dut):
    tb = EncapsTB(dut)
    await tb.reset()
    rng = random.Random(int(os.environ.get("FA_SEED", "203")))
    for t in range(6 if FULL else 1):
        ek = _keypair(rng)
        m = bytes(rng.randrange(256) for _ in range(32))
        err, cyc, ct, k = await tb.encaps(ek, m)
        rc, ct_ref, k_ref = ref.encaps(ek, m)
        assert rc == 0 and err == ERR_NONE
        bad = [i for i in range(len(ct)) if ct[i] != ct_ref[i]]
        assert not bad, "ct differs at %d bytes, first %d" % (len(bad), bad[0])
        assert k == k_ref, "K differs"
        dut._log.info("random #%d: ok, %d cycles", t, cyc)


@cocotb.test()
async def constant_time_and_illegal(dut):
    """One ek, m = 00..00 then m = ff..ff: the same cycle count. The second
    run also takes the illegal requests (start and writes while busy, ct/K
    reads while busy): refused, its result intact."""
    tb = EncapsTB(dut)
    await tb.reset()
    d = dut
    # nothing computed yet: ct / K refused
    _, e = await tb.read(A_CT, 1)
    assert e == 1
    rng = random.Random(7)
    ek = _keypair(rng)
    m1 = bytes(32)
    e1, c1, ct1, k1 = await tb.encaps(ek, m1)
    assert e1 == ERR_NONE and (ct1, k1) == ref.encaps(ek, m1)[1:]
    for lv in (0, 2, 3):
        await tb.start(lv)
        err, _ = await tb.wait_done(10)
        assert err == ERR_LEVEL
    _, e = await tb.read(A_K, 1)      # a refused start leaves no result
    assert e == 1
    # unmapped addresses: refused
    assert await tb.write(0x130, [1]) == 1
    assert await tb.write(A_CT, [1]) == 1
    _, e = await tb.read(0x3ff, 1)
    assert e == 1
    # start while busy and writes while busy: refused, the operation completes
    m = bytes([0xff] * 32)
    assert await tb.write(A_EK, words(ek)) == 0
    assert await tb.write(A_M, words(m)) == 0
    await tb.start()
    for _ in range(50):
        await RisingEdge(d.clk_i)
    assert int(d.busy_o.value) == 1
    await tb.start()
    await ReadOnly()
    await RisingEdge(d.clk_i)
    assert int(d.err_o.value) == ERR_BUSY
    assert await tb.write(A_M, [0xdeadbeef]) == 1
    _, e = await tb.read(A_K, 1)
    assert e == 1
    err, c2 = await tb.wait_done()
    assert err == ERR_BUSY           # the refused start is reported
    ct, _ = await tb.read(A_CT, 272)
    k, _ = await tb.read(A_K, 8)
    assert (ct, k) == ref.encaps(ek, m)[1:], "result corrupted by refused requests"
    assert k != k1
    assert c1 == c2, "cycles depend on m: %d vs %d" % (c1, c2)
    dut._log.info("m = 00..00 and ff..ff: %d cycles each", c1)


@cocotb.test()
async def watchdog(dut):
    if int(dut.WDOG.value) >= 100000:
        dut._log.info("watchdog: run by the WDOG = 500 build")
        return
    tb = EncapsTB(dut)
    await tb.reset()
    ek = _keypair(random.Random(3))
    err, cyc, _, _ = await tb.encaps(ek, bytes(32))
    assert err == ERR_WDOG and cyc >= 500
    assert int(dut.busy_o.value) == 0
    await tb.start(2)
    err, _ = await tb.wait_done(10)
    assert err == ERR_LEVEL


HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "common", "dv"))


@pytest.mark.parametrize("wdog", [200000, 500])
def test_mlkem_encaps(wdog):
    import fa_cocotb
    ref.build()
    srcs = fa_cocotb.ip_sources("keccak", "mlkem")
    env = {} if wdog >= 100000 else {"TESTCASE": "watchdog"}
    fa_cocotb.run("mlkem_encaps", srcs, "test_mlkem_encaps", HERE,
                  parameters={"WDOG": wdog}, extra_env=env)


def test_mlkem_rom_fresh():
    gen = os.path.join(HERE, "..", "util", "gen_mlkem_rom.py")
    subprocess.run([sys.executable, gen, "--check"], check=True)
