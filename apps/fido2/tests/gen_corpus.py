#!/usr/bin/env python3
"""Generates the seed corpus of the fido2 fuzz targets (deterministic):
  corpus/cbor/     CTAP2 request bodies and edge-case CBOR items
  corpus/ctaphid/  inputs of fuzz_fido2_ctaphid: 0x00 + CTAP2 request
                   (direct), or 0x01 + a sequence of 64-byte HID reports
Usage: apps/fido2/tests/gen_corpus.py   (rewrites both directories)"""
import hashlib
import os
import re
import struct
import sys
from pathlib import Path

from fido2 import cbor

HERE = Path(__file__).resolve().parent
CDH = hashlib.sha256(b"corpus").digest()
# Algorithm identifiers from their one place, apps/fido2/core/fido2_cose.h.
_COSE = dict((m[0], int(m[1])) for m in re.findall(
    r"#define\s+(FIDO2_COSE_ALG_\w+)\s+\(?(-?\d+)\)?",
    (HERE.parent / "core" / "fido2_cose.h").read_text()))
ALG512, ALG1024 = _COSE["FIDO2_COSE_ALG_FNDSA512"], _COSE["FIDO2_COSE_ALG_FNDSA1024"]


def mc(rk=False, algs=(ALG512,), excl=None, uv=None, pin=None):
    req = {1: CDH, 2: {"id": "example.com", "name": "Example"},
           3: {"id": b"user-1", "name": "alice", "displayName": "Alice"},
           4: [{"alg": a, "type": "public-key"} for a in algs],
           7: {"rk": rk}}
    if excl is not None:
        req[5] = [{"id": excl, "type": "public-key"}]
    if uv is not None:
        req[7]["uv"] = uv
    if pin is not None:
        req[8] = pin
        req[9] = 2
    return b"\x01" + cbor.encode(req)


def ga(allow=None, up=None):
    req = {1: "example.com", 2: CDH}
    if allow is not None:
        req[3] = [{"id": i, "type": "public-key"} for i in allow]
    if up is not None:
        req[5] = {"up": up}
    return b"\x02" + cbor.encode(req)


REQUESTS = {
    "getinfo": b"\x04", "reset": b"\x07", "gna": b"\x08", "selection": b"\x0b",
    "mc_512": mc(), "mc_1024_rk": mc(True, (-7, ALG1024)), "mc_es256": mc(algs=(-7,)),
    "mc_excl": mc(excl=b"\x01\x09" + bytes(60)), "mc_uv": mc(uv=True),
    "mc_pin_probe": mc(pin=b""), "mc_pin": mc(pin=bytes(16)),
    "ga_rk": ga(), "ga_allow": ga([b"\x01\x09" + bytes(60), b"short"]),
    "ga_silent": ga(up=False),
}

EDGE = {
    "int_24": bytes.fromhex("1818"), "nint": bytes.fromhex("3903e7"),
    "nested": bytes.fromhex("818181818181818100"),
    "map_text": bytes.fromhex("a261610062616100"),
    "utf8": b"\x69" + "é€𝄞".encode(),
    "bool_null": bytes.fromhex("83f4f5f6"),
    "u64": bytes.fromhex("1b0000000100000000"),
}


def hid_packets(cid, cmd, payload):
    out = [struct.pack(">IBH", cid, cmd, len(payload)) + payload[:57]]
    off, seq = 57, 0
    while off < len(payload):
        out.append(struct.pack(">IB", cid, seq) + payload[off:off + 59])
        off += 59
        seq += 1
    return b"".join(p.ljust(64, b"\0") for p in out)


CORPUS = HERE / "corpus"


def main():
    for sub in ("cbor", "ctaphid"):
        d = CORPUS / sub
        d.mkdir(parents=True, exist_ok=True)
        for f in d.iterdir():
            f.unlink()
    for name, req in REQUESTS.items():
        (CORPUS / "cbor" / name).write_bytes(req[1:] if len(req) > 1 else b"\xa0")
        (CORPUS / "ctaphid" / ("direct_" + name)).write_bytes(b"\x00" + req)
        (CORPUS / "ctaphid" / ("hid_" + name)).write_bytes(
            b"\x01" + hid_packets(1, 0x90, req))
    for name, item in EDGE.items():
        (CORPUS / "cbor" / name).write_bytes(item)
    init = struct.pack(">IBH", 0xFFFFFFFF, 0x86, 8) + bytes(range(8))
    c = CORPUS / "ctaphid"
    (c / "hid_init").write_bytes(b"\x01" + init.ljust(64, b"\0"))
    (c / "hid_ping_big").write_bytes(b"\x01" + hid_packets(1, 0x81, bytes(range(256)) * 29))
    (c / "hid_wink").write_bytes(b"\x01" + hid_packets(1, 0x88, b""))
    (c / "hid_msg").write_bytes(b"\x01" + hid_packets(1, 0x83, bytes.fromhex("00010000")))
    (c / "hid_busy").write_bytes(b"\x01" + hid_packets(1, 0x81, bytes(200))[:64]
                                 + hid_packets(2, 0x90, b"\x04"))
    (c / "hid_cancel").write_bytes(b"\x01" + hid_packets(1, 0x81, bytes(100))[:64]
                                   + hid_packets(1, 0x91, b""))


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        def _gen(tmp):
            global CORPUS
            CORPUS = Path(tmp)
            main()
        sys.path.insert(0, str(HERE.parents[2] / "scripts"))
        import genutil
        d = genutil.check_corpus(_gen, ("cbor", "ctaphid"), str(HERE / "corpus"))
        for x in d:
            print("gen_corpus: " + x, file=sys.stderr)
        sys.exit(1 if d else 0)
    main()
