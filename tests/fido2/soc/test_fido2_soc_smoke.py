"""CI smoke of the FIDO2 key as firmware on the simulated SoC
(fw/fido2_main.c behind falcon-accel-fido2-soc), short enough for CI: a
Falcon-512 key generation on the SoC takes ~114 M cycles (minutes of
simulation), so the credential is provisioned by the same device code on
the host (--core host) into the flash image, and the SoC boots that image:

- CTAPHID INIT and PING, authenticatorGetInfo (FN-DSA-512 announced);
- malformed input answered with an error while the key keeps serving: an
  unknown CTAPHID command (ERR_INVALID_CMD), truncated CBOR
  (CTAP2_ERR_INVALID_CBOR), a CBOR command the key does not know;
- two getAssertions with the provisioned discoverable credential
  (registered through Fido2Client/Fido2Server on the host core), signed by
  the firmware with the accelerator (dma kernels), verified through our
  FN-DSA CoseKey (falcon_accel), counters above the registration's and
  increasing: the first expands the key into the firmware's expanded-key
  cache (cold), the second signs from it with the tree still in the
  ffSampling engine (warm, fa_sign_tree);
- the cycle log of the bridge names both getAssertions and their mcycle
  counts; the warm one takes under half the cold one's cycles.

Env: FIDO2_SOC_BRIDGE (the bridge), FIDO2_SOC_ARGS (e.g. --sim PATH --fw
PATH), FIDO2_SOC_CYCLES_OUT (copy the cycle log there).
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
from fido2_udp import ALG_FNDSA512  # noqa: E402
from test_fido2_e2e import make_client, make_server, register  # noqa: E402

PORT_BASE = int(os.environ.get("FIDO2_SOC_PORT_BASE", "29411"))


def bridge(state, port, reply, core, log):
    extra = ["--core", core, "--cycle-log", str(log)]
    if core == "soc":
        extra += ["--mode", "dma"] + shlex.split(os.environ.get("FIDO2_SOC_ARGS", ""))
    return fido2_udp.Daemon(state, port, reply, exe=fido2_udp.bridge_path(), extra=extra)


def test_soc_firmware_serves_a_provisioned_credential(tmp_path):
    state = tmp_path / "state"
    log = tmp_path / "cycles.jsonl"
    server = make_server()

    # 1. provisioning: the device code in-process writes the flash image
    host = bridge(state, PORT_BASE, PORT_BASE + 1, "host", log)
    host.start()
    try:
        dev = fido2_udp.open_device(PORT_BASE, PORT_BASE + 1)
        cred, reg = register(make_client(dev), server, b"soc-user", rk=True)
        dev.close()
    finally:
        assert host.stop() == 0
    assert (state / "flash.bin").stat().st_size == 0x20000

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

        # two assertions signed by the firmware (accelerator, dma kernels):
        # cold (key expanded into the cache), then warm (from the cache);
        # Ctap2 directly: Fido2Client would first send a silent pre-flight
        # getAssertion, one more signature
        counter = reg.counter
        for what in (b"soc smoke, cold", b"soc smoke, warm"):
            cdh = hashlib.sha256(what).digest()
            a = Ctap2(dev).get_assertion(
                "example.com", cdh,
                allow_list=[{"type": "public-key", "id": cred.credential_id}])
            assert a.credential["id"] == cred.credential_id
            assert a.user["id"] == b"soc-user"
            assert a.auth_data.rp_id_hash == hashlib.sha256(b"example.com").digest()
            assert a.auth_data.is_user_present()
            assert a.auth_data.counter > counter
            counter = a.auth_data.counter
            cred.public_key.verify(bytes(a.auth_data) + cdh, a.signature)
            with pytest.raises(ValueError):   # the check can fail
                cred.public_key.verify(bytes(a.auth_data) + bytes(32), a.signature)
        dev.close()
    finally:
        rc = soc.stop()
    assert rc == 0

    lines = [json.loads(x) for x in log.read_text().splitlines()]
    socs = [x for x in lines if x["core"] == "soc"]
    ga = [x for x in socs if x["cmd"] == "getAssertion" and x["status"] == 0]
    assert len(ga) == 2 and all(x["kernels"] == "dma" for x in ga)
    assert all(x["cycles"] > 100_000 and x["kcalls"] > 0 for x in ga)
    # the warm assertion skips the key expansion (and the tree upload)
    assert ga[1]["cycles"] * 2 < ga[0]["cycles"], (ga[0]["cycles"], ga[1]["cycles"])
    for x in socs:
        print("SoC %-15s status 0x%02x %12d cycles = %9.3f ms at 100 MHz (%d kernel calls, %.1f s simulated)"
              % (x["cmd"], x["status"], x["cycles"], x["ms_at_100mhz"], x["kcalls"], x["wall_s"]))
    out = os.environ.get("FIDO2_SOC_CYCLES_OUT")
    if out:
        shutil.copy(log, out)
