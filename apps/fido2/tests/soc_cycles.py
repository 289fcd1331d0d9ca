#!/usr/bin/env python3
"""mcycle counts of the FIDO2 key's commands on the simulated SoC
(apps/fido2/fw/fido2_main.c through falcon-accel-fido2-soc), as a markdown table with
ms at 100 MHz. Runs, on a fresh state: getInfo; makeCredential FN-DSA-512
discoverable (key generation, expansion into the expanded-key cache, the
attestation signed from it); getAssertion with it (warm: the expanded key
cached; round 3: its tree still in the ffSampling engine); makeCredential
FN-DSA-512 non-discoverable; getAssertion with it (warm); then restarts the simulator
(a power-up: RAM and the engine lost; the image with the page store and the
persistent expanded-key cache kept) and asserts with the non-discoverable
credential and the discoverable one (both from the adopted cache: no key
generation, no expansion; the tree uploaded to the engine again), and both
again (warm). Then the evicted case: a third credential is made by the
bridge's in-process core (--core host, same image; it takes the slot of the
least recently used, the discoverable one), and after another power-up the
discoverable credential asserts again (the slow path: the expansion of the
stored key). Every signature is verified on the host (the COSE classes of
e2e/fido2_udp.py). Optional --evicted-nrk: the non-discoverable credential
evicted too (key generation from the wrapped seed + expansion: long);
--fndsa1024: one -1024 makeCredential + getAssertion more (long);
--scheme falcon-r3: the same sequence with round-3 Falcon credentials (the
key's private-use identifiers; signed with the ffSampling engine) instead
of FN-DSA.

  python3 apps/fido2/tests/soc_cycles.py --bridge B --sim S --fw F [--mode dma]
      [--scheme fn-dsa|falcon-r3]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "e2e"))

import fido2_udp  # noqa: E402
from fido2.ctap2 import Ctap2  # noqa: E402
from fido2_udp import (ALG_FALCON512_R3, ALG_FALCON1024_R3, ALG_FNDSA1024,  # noqa: E402
                       ALG_FNDSA512)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bridge", required=True)
    ap.add_argument("--sim")
    ap.add_argument("--fw")
    ap.add_argument("--core", default="soc",
                    help="host: a dry run of the sequence on the in-process core (seconds,"
                    " no cycle counts)")
    ap.add_argument("--mode", default="dma")
    ap.add_argument("--port", type=int, default=29611)
    ap.add_argument("--fndsa1024", action="store_true")
    ap.add_argument("--scheme", default="fn-dsa", choices=("fn-dsa", "falcon-r3"))
    ap.add_argument("--evicted-nrk", action="store_true")
    ap.add_argument("--log", help="keep the JSON cycle log here")
    args = ap.parse_args()
    if args.scheme == "fn-dsa":
        a512, a1024, n512, n1024 = ALG_FNDSA512, ALG_FNDSA1024, "FN-DSA-512", "FN-DSA-1024"
    else:
        a512, a1024 = ALG_FALCON512_R3, ALG_FALCON1024_R3
        n512, n1024 = "Falcon-512 (round 3)", "Falcon-1024 (round 3)"
    tmp = Path(tempfile.mkdtemp(prefix="fido2-soc-cycles-"))
    log = Path(args.log) if args.log else tmp / "cycles.jsonl"
    if args.core == "soc":
        if not args.sim or not args.fw:
            ap.error("--core soc needs --sim and --fw")
        extra = ["--core", "soc", "--mode", args.mode, "--sim", args.sim, "--fw", args.fw,
                 "--cycle-log", str(log)]
    else:
        extra = ["--core", "host", "--cycle-log", str(log)]
    cdh = hashlib.sha256(b"soc cycles").digest()
    rp = {"id": "example.com", "name": "Example"}
    rows = []   # (label, log line index)

    def count():
        return len(log.read_text().splitlines()) if log.exists() else 0

    def run(label, fn):
        # the bridge may append the command's line just after the reply:
        # wait for it, and take the last line of this command's name
        # written since (python-fido2 may send a getInfo of its own)
        before = count()
        r = fn()
        cmd = next(w for w in label.replace(":", " ").split()
                   if w in ("getInfo", "makeCredential", "getAssertion"))
        for _ in range(100):
            lines = log.read_text().splitlines() if log.exists() else []
            idx = [i for i in range(before, len(lines))
                   if json.loads(lines[i])["cmd"] == cmd]
            if idx:
                break
            time.sleep(0.1)
        assert idx, "no cycle-log line for " + label
        rows.append((label, idx[-1]))
        print("done:", label, flush=True)
        return r

    d = fido2_udp.Daemon(tmp / "state", args.port, args.port + 1, exe=args.bridge,
                         extra=extra)
    d.start(timeout=120)
    dev = fido2_udp.open_device(args.port, args.port + 1, timeout=60, alive=d.alive)
    ctap = Ctap2(dev)
    run("getInfo", ctap.get_info)

    def power_up():
        nonlocal dev, ctap
        dev.close()
        assert d.stop() == 0
        d.start(timeout=120)
        dev = fido2_udp.open_device(args.port, args.port + 1, timeout=60, alive=d.alive)
        ctap = Ctap2(dev)

    def make(uid, alg, rk):
        att = ctap.make_credential(cdh, rp, {"id": uid, "name": uid.decode()},
                                   [{"type": "public-key", "alg": alg}],
                                   options={"rk": rk})
        return att.auth_data.credential_data

    def assertion(cd):
        a = ctap.get_assertion("example.com", cdh,
                               allow_list=[{"type": "public-key", "id": cd.credential_id}])
        cd.public_key.verify(bytes(a.auth_data) + cdh, a.signature)
        return a

    rk = run("makeCredential %s, discoverable" % n512, lambda: make(b"rk", a512, True))
    run("getAssertion %s, discoverable (warm: expanded key cached)" % n512,
        lambda: assertion(rk))
    nrk = run("makeCredential %s, non-discoverable" % n512,
              lambda: make(b"nrk", a512, False))
    run("getAssertion %s, allow list (warm)" % n512, lambda: assertion(nrk))
    power_up()
    run("after a power-up: getAssertion %s, allow list (non-discoverable, from the"
        " persistent cache: no keygen, no expansion)" % n512, lambda: assertion(nrk))
    run("after a power-up: getAssertion %s, discoverable (from the persistent cache:"
        " no expansion)" % n512, lambda: assertion(rk))
    run("getAssertion %s, discoverable, warm again" % n512, lambda: assertion(rk))
    run("getAssertion %s, allow list, warm again" % n512, lambda: assertion(nrk))
    # the evicted case: a third credential made on the host core takes the
    # slot of the least recently used (rk)
    dev.close()
    assert d.stop() == 0
    h = fido2_udp.Daemon(tmp / "state", args.port, args.port + 1, exe=args.bridge,
                         extra=["--core", "host"])
    h.start(timeout=60)
    hdev = fido2_udp.open_device(args.port, args.port + 1, timeout=60, alive=h.alive)
    Ctap2(hdev).make_credential(cdh, rp, {"id": b"third", "name": "third"},
                                [{"type": "public-key", "alg": a512}],
                                options={"rk": True})
    hdev.close()
    assert h.stop() == 0
    d.start(timeout=120)
    dev = fido2_udp.open_device(args.port, args.port + 1, timeout=60, alive=d.alive)
    ctap = Ctap2(dev)
    run("after a power-up: getAssertion %s, discoverable, evicted (slow path:"
        " expansion of the stored key)" % n512, lambda: assertion(rk))
    if args.evicted_nrk:
        run("getAssertion %s, allow list, evicted (slow path: keygen from the"
            " wrapped seed + expansion)" % n512, lambda: assertion(nrk))
    if args.fndsa1024:
        big = run("makeCredential %s, non-discoverable" % n1024,
                  lambda: make(b"big", a1024, False))
        run("getAssertion %s, allow list (key cached)" % n1024, lambda: assertion(big))
    dev.close()
    assert d.stop() == 0
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    print("\n| command (%s kernels) | mcycle | ms at 100 MHz | accelerator kernel calls |"
          " simulated in (s) |" % args.mode)
    print("|---|---|---|---|---|")
    for label, i in rows:
        x = lines[i]
        assert x["status"] == 0, (label, x)
        print("| %s | %s | %.1f | %d | %.0f |" % (label, format(x["cycles"], ","),
                                                  x["ms_at_100mhz"], x["kcalls"], x["wall_s"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
