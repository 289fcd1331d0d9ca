"""CI smoke of the FIDO2 key as firmware on the simulated SoC
(apps/fido2/fw/fido2_main.c behind falcon-accel-fido2-soc), short enough for CI: a
key generation on the SoC takes tens of millions of cycles (minutes of
simulation), so the credentials are provisioned by the same device code on
the host (--core host) into the persistent image (expanded-key cache +
flash), and the SoC boots that image:

- provisioning (host core, registered through Fido2Client/Fido2Server):
  "r3" discoverable round-3 Falcon-512 (the private-use identifier), then
  the FN-DSA-512 ones: "early" discoverable, "nrk" non-discoverable,
  "late" discoverable (which evicts early's expanded key from the
  two-slot cache), then one assertion with nrk (so that late is the least
  recently used);
- SoC, first power-up: CTAPHID INIT and PING, authenticatorGetInfo
  (FN-DSA-512 announced); malformed input answered with an error while the
  key keeps serving (an unknown CTAPHID command: ERR_INVALID_CMD; truncated
  CBOR: CTAP2_ERR_INVALID_CBOR; a CBOR command the key does not know);
  two getAssertions with early: the first expands its FN-DSA key into the
  cache (evicted: the slow path, evicting late), the second signs from it
  (fa_fndsa_sign_tree, warm);
- the simulator restarted (a power-up: RAM and the engine lost, the image
  kept): getAssertion with early (discoverable, its slot written by the
  firmware) and with nrk (non-discoverable, its slot written by the host
  core: no key generation from the wrapped seed), both from the adopted
  cache: each, like the warm one, at least 2 M cycles under the slow one
  (an FN-DSA key expansion is ~5 M, a key generation far more); then r3
  twice: its round-3 key expanded (evicting early), then warm with the
  tree resident in the ffSampling engine, under half the first and under
  2 M cycles (FN-DSA signs on the core: the engine and the SamplerZ unit
  serve round 3's sampler only; the 10 ms target is measured by
  apps/fido2/tests/soc_cycles.py, not asserted here);
- every signature verified through our COSE keys (FN-DSA: 666 bytes, the
  FN-DSA verifier; round 3: falcon_accel), the same check failing on
  another message; counters increasing.

Env: FIDO2_SOC_BRIDGE (the bridge), FIDO2_SOC_ARGS (e.g. --sim PATH --fw
PATH), FIDO2_SOC_CYCLES_OUT (copy the cycle log there), FIDO2_CLI (the
FN-DSA verifier when the falcon_accel package has none).
"""
from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "e2e"))

import fido2_udp  # noqa: E402
from fido2.ctap import CtapError  # noqa: E402
from fido2.ctap2 import Ctap2  # noqa: E402
from fido2.hid import CTAPHID  # noqa: E402
from fido2_udp import ALG_FALCON512_R3, ALG_FNDSA512  # noqa: E402
from test_fido2_e2e import make_client, make_server, register  # noqa: E402

PORT_BASE = int(os.environ.get("FIDO2_SOC_PORT_BASE", "29411"))


def bridge(state, port, reply, core, log):
    extra = ["--core", core, "--cycle-log", str(log)]
    if core == "soc":
        extra += ["--mode", "dma"] + shlex.split(os.environ.get("FIDO2_SOC_ARGS", ""))
    return fido2_udp.Daemon(state, port, reply, exe=fido2_udp.bridge_path(), extra=extra)


def soc_assert(dev, cred, counter, what, user=None):
    """One getAssertion on the SoC with cred (allow list), checked; Ctap2
    directly: Fido2Client would first send a silent pre-flight
    getAssertion, one more signature. Returns the counter."""
    cdh = hashlib.sha256(what).digest()
    a = Ctap2(dev).get_assertion(
        "example.com", cdh,
        allow_list=[{"type": "public-key", "id": cred.credential_id}])
    assert a.credential["id"] == cred.credential_id
    if user is not None:
        assert a.user["id"] == user
    assert a.auth_data.rp_id_hash == hashlib.sha256(b"example.com").digest()
    assert a.auth_data.is_user_present()
    assert a.auth_data.counter > counter
    cred.public_key.verify(bytes(a.auth_data) + cdh, a.signature)
    with pytest.raises(ValueError):   # the check can fail
        cred.public_key.verify(bytes(a.auth_data) + bytes(32), a.signature)
    return a.auth_data.counter


def test_soc_firmware_serves_a_provisioned_credential(tmp_path):
    state = tmp_path / "state"
    log = tmp_path / "cycles.jsonl"
    server = make_server()

    # 1. provisioning: the device code in-process writes the image
    host = bridge(state, PORT_BASE, PORT_BASE + 1, "host", log)
    host.start()
    try:
        dev = fido2_udp.open_device(PORT_BASE, PORT_BASE + 1)
        client = make_client(dev)
        r3, _ = register(client, make_server((ALG_FALCON512_R3,)), b"r3", rk=True)
        early, reg = register(client, server, b"early", rk=True)
        nrk, _ = register(client, server, b"nrk", rk=False)
        late, reg2 = register(client, server, b"late", rk=True)
        counter = soc_assert(dev, nrk, reg2.counter, b"host: nrk")
        dev.close()
    finally:
        assert host.stop() == 0
    assert (state / "flash.bin").stat().st_size == 0x60000

    # 2. the SoC firmware on that image
    soc = bridge(state, PORT_BASE + 2, PORT_BASE + 3, "soc", log)
    soc.start(timeout=120)
    try:
        dev = fido2_udp.open_device(PORT_BASE + 2, PORT_BASE + 3, alive=soc.alive)
        assert dev.ping(b"falcon on the SoC") == b"falcon on the SoC"
        info = Ctap2(dev).get_info()
        assert "FIDO_2_1" in info.versions
        assert any(a.get("alg") == ALG_FNDSA512 for a in info.algorithms)

        # malformed input gets errors, the key keeps serving
        conn = dev._connection
        cid = dev._channel_id.to_bytes(4, "big")
        conn.write_packet(cid + bytes([0x80 | 0x35, 0, 0]))
        err = conn.read_packet()
        assert err[:5] == cid + bytes([0x80 | CTAPHID.ERROR]) and err[7] == 0x01
        resp = dev.call(CTAPHID.CBOR, bytes([0x02, 0xa2, 0x01]))   # truncated map
        assert resp[0] == CtapError.ERR.INVALID_CBOR
        resp = dev.call(CTAPHID.CBOR, bytes([0x55]))               # unknown command
        assert resp[0] == CtapError.ERR.INVALID_COMMAND
        assert dev.ping(b"still here") == b"still here"

        # early: evicted by late on the host, so expanded now (slow), then warm
        for what in (b"soc smoke, early, evicted", b"soc smoke, early, warm"):
            counter = soc_assert(dev, early, counter, what, user=b"early")
        dev.close()
    finally:
        rc = soc.stop()
    assert rc == 0

    # 3. power-up: the simulator restarted on the image it saved
    soc = bridge(state, PORT_BASE + 2, PORT_BASE + 3, "soc", log)
    soc.start(timeout=120)
    try:
        dev = fido2_udp.open_device(PORT_BASE + 2, PORT_BASE + 3, alive=soc.alive)
        counter = soc_assert(dev, early, counter, b"after power-up: early", user=b"early")
        counter = soc_assert(dev, nrk, counter, b"after power-up: nrk")
        # round 3: expanded (evicting early), then warm in the engine
        for what in (b"soc smoke, r3, evicted", b"soc smoke, r3, warm"):
            counter = soc_assert(dev, r3, counter, what, user=b"r3")
        dev.close()
    finally:
        rc = soc.stop()
    assert rc == 0

    lines = [json.loads(x) for x in log.read_text().splitlines()]
    socs = [x for x in lines if x["core"] == "soc"]
    for x in socs:
        print("SoC %-15s status 0x%02x %12d cycles = %9.3f ms at 100 MHz (%d kernel calls, %.1f s simulated)"
              % (x["cmd"], x["status"], x["cycles"], x["ms_at_100mhz"], x["kcalls"], x["wall_s"]))
    out = os.environ.get("FIDO2_SOC_CYCLES_OUT")
    if out:
        shutil.copy(log, out)
    ga = [x for x in socs if x["cmd"] == "getAssertion" and x["status"] == 0]
    assert len(ga) == 6 and all(x["kernels"] == "dma" for x in ga)
    assert all(x["cycles"] > 100_000 and x["kcalls"] > 0 for x in ga)
    slow, warm, early_pu, nrk_pu, r3_slow, r3_warm = (x["cycles"] for x in ga)
    # FN-DSA: the warm assertion skips the key expansion; after the
    # power-up both kinds sign from the adopted cache: no expansion, no key
    # generation
    for c in (warm, early_pu, nrk_pu):
        assert c + 2_000_000 < slow, (slow, warm, early_pu, nrk_pu)
    # round 3: warm with the tree in the ffSampling engine
    assert r3_warm * 2 < r3_slow and r3_warm < 2_000_000, (r3_slow, r3_warm)


def test_flash_image_of_the_earlier_layout_is_converted(tmp_path):
    """A state directory from before the expanded-key cache was persistent
    (flash.bin = the 128 KiB flash alone) still boots: the bridge rewrites
    it as the whole image, its credentials kept; a stale flash.bin.tmp is
    removed at start (host core: seconds)."""
    state = tmp_path / "state"
    log = tmp_path / "cycles.jsonl"
    server = make_server()
    host = bridge(state, PORT_BASE + 4, PORT_BASE + 5, "host", log)
    host.start()
    try:
        dev = fido2_udp.open_device(PORT_BASE + 4, PORT_BASE + 5)
        cred, reg = register(make_client(dev), server, b"old", rk=True)
        dev.close()
    finally:
        assert host.stop() == 0
    img = (state / "flash.bin").read_bytes()
    assert len(img) == 0x60000
    (state / "flash.bin").write_bytes(img[0x40000:])   # the flash alone
    # and the leftover of a save interrupted by a kill: dropped at start
    (state / "flash.bin.tmp").write_bytes(img[:1000])
    host = bridge(state, PORT_BASE + 4, PORT_BASE + 5, "host", log)
    host.start()
    assert not (state / "flash.bin.tmp").exists()
    try:
        dev = fido2_udp.open_device(PORT_BASE + 4, PORT_BASE + 5)
        soc_assert(dev, cred, reg.counter, b"converted image", user=b"old")
        dev.close()
    finally:
        assert host.stop() == 0
    new = (state / "flash.bin").read_bytes()
    assert len(new) == 0x60000 and new[0x40000:0x60000] != img[0x40000:0x60000]
