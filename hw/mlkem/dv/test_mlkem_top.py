"""cocotb tests of the ML-KEM-768 encaps sequencer inside falcon_accel_top
(KEMENC = 1): ek and m through the KEMENC window (AXI4-Lite), op
KEM_ENCAPS with CONST_LO = 768, ct and K read back, checked against the C
library (mlkem_refmodel.py); CONFIG.KEMENC; the illegal requests: a level
other than 768 (STATUS.ERR = KEMENC, KEMENC_RESULT.ERR = LEVEL), an ek
failing the modulus check (KEMERR EK, ct/K reads SLVERR), START and window
accesses while busy (ERR BUSY, SLVERR), writes to ct, words outside the
map. Run: cd hw && python3 -m pytest mlkem/dv/test_mlkem_top.py -q"""
import os
import random
import sys

import cocotb
from cocotb.triggers import RisingEdge

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "top", "dv"))
import mlkem_refmodel as ref  # noqa: E402
from test_falcon_accel_top import ERR, OP, REG, TopTB  # noqa: E402

import gen_regmap  # noqa: E402  (path set by test_falcon_accel_top)

RM = gen_regmap.load()
WIN = {w["name"]: w["offset"] for w in RM["windows"]}
KEMERR = {v["name"]: v["value"] for v in RM["enums"]["KEMERR"]}
E = WIN["KEMENC"]
A_M, A_CT, A_K = E + 4 * 0x128, E + 4 * 0x200, E + 4 * 0x310


def words(b):
    return [int.from_bytes(b[i:i + 4], "little") for i in range(0, len(b), 4)]


class KemencTopTB(TopTB):
    async def load(self, ek, m):
        for i, w in enumerate(words(ek)):
            assert await self.write(E + 4 * i, w) == 0
        for i, w in enumerate(words(m)):
            assert await self.write(A_M + 4 * i, w) == 0

    async def start_encaps(self, level=768):
        await self.write(REG["CONST_LO"], level)
        await self.write(REG["OP"], OP["KEM_ENCAPS"])
        await self.write(REG["CTRL"], 1)

    async def wait_end(self, limit=40000):
        for _ in range(limit):
            st = await self.read(REG["STATUS"])
            if st & 2:
                return st >> 4, await self.read(REG["CYCLES"])
        raise AssertionError("no DONE")

    async def result(self):
        ct, k = b"", b""
        for i in range(272):
            ct += (await self.read(A_CT + 4 * i)).to_bytes(4, "little")
        for i in range(8):
            k += (await self.read(A_K + 4 * i)).to_bytes(4, "little")
        return ct, k


@cocotb.test()
async def encaps_window(dut):
    tb = KemencTopTB(dut, seed=11)
    await tb.start()
    assert (await tb.read(REG["CONFIG"]) >> 20) & 1 == 1
    # ct / K before any result: SLVERR
    _, resp = await tb.read(A_K, want_resp=True)
    assert resp == 2
    await tb.write(REG["CTRL"], 2)
    rng = random.Random(int(os.environ.get("FA_SEED", "768")))
    ek = ref.keygen(bytes(rng.randrange(256) for _ in range(32)),
                    bytes(rng.randrange(256) for _ in range(32)))[0]
    m = bytes(rng.randrange(256) for _ in range(32))
    await tb.load(ek, m)
    await tb.start_encaps()
    # while busy: START refused (BUSY), window access SLVERR
    await tb.write(REG["CTRL"], 1)
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["BUSY"]
    assert await tb.write(E, 0) == 2
    err, cyc = await tb.wait_end()
    assert err == ERR["ACCESS"]          # the refused window write above
    assert await tb.read(REG["KEMENC_RESULT"]) == KEMERR["OK"]
    ct, k = await tb.result()
    rc, ct_ref, k_ref = ref.encaps(ek, m)
    assert rc == 0 and ct == ct_ref and k == k_ref, "ct/K differ from the library"
    dut._log.info("KEM_ENCAPS through the top: CYCLES = %d", cyc)
    # illegal: writes to ct, words outside the map
    await tb.write(REG["CTRL"], 2)
    assert await tb.write(A_CT, 1) == 2
    _, resp = await tb.read(E + 4 * 0x140, want_resp=True)
    assert resp == 2
    assert (await tb.read(REG["STATUS"])) >> 4 == ERR["ACCESS"]


@cocotb.test()
async def encaps_errors(dut):
    tb = KemencTopTB(dut, seed=12)
    await tb.start()
    for level in (512, 1024, 0):
        await tb.write(REG["CTRL"], 2)
        await tb.start_encaps(level)
        err, _ = await tb.wait_end()
        assert err == ERR["KEMENC"]
        assert await tb.read(REG["KEMENC_RESULT"]) == KEMERR["LEVEL"]
    bad = [r for r in ref.vectors() if not r["valid"] and len(r["ek"]) == ref.EK][0]
    await tb.write(REG["CTRL"], 2)
    await tb.load(bad["ek"], bad["m"])
    await tb.start_encaps()
    err, _ = await tb.wait_end()
    assert err == ERR["KEMENC"] and await tb.read(REG["KEMENC_RESULT"]) == KEMERR["EK"]
    _, resp = await tb.read(A_CT, want_resp=True)
    assert resp == 2


def test_mlkem_top():
    from fa_cocotb import manifest, TOP_MANIFEST, run
    ref.build()
    run("falcon_accel_top", manifest(TOP_MANIFEST), "test_mlkem_top", HERE, tag="kemenc",
        parameters={"P": 1, "LP": 0, "KEMENC": 1}, extra_env={"FA_P": "1"})
