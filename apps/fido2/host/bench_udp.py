#!/usr/bin/env python3
"""Client-side latency of falcon-accel-fido2 over CTAPHID/UDP: python-fido2's
Ctap2 sends makeCredential / getAssertion (FN-DSA-512) and waits for the
answer; medians in ms, so transport, framing and Python are included.

    python3 apps/fido2/host/bench_udp.py --start build/apps/fido2/host/falcon-accel-fido2 [--runs 400]
"""
import argparse
import hashlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))

import fido2_udp  # noqa: E402
from fido2.ctap2 import Ctap2  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", required=True, metavar="DAEMON")
    ap.add_argument("--runs", type=int, default=400)
    ap.add_argument("--port", type=int, default=18311)
    args = ap.parse_args()
    fido2_udp.os.environ["FIDO2_DAEMON"] = args.start
    d = fido2_udp.Daemon(Path(tempfile.mkdtemp()) / "state", args.port, args.port + 1)
    d.start()
    try:
        ctap = Ctap2(fido2_udp.open_device(args.port, args.port + 1))
        cdh = hashlib.sha256(b"bench").digest()
        params = [{"type": "public-key", "alg": fido2_udp.ALG_FNDSA512}]
        mc, ga, ga_rk = [], [], []
        for i in range(max(10, args.runs // 4)):
            t0 = time.perf_counter()
            att = ctap.make_credential(cdh, {"id": "example.com"},
                                       {"id": b"u%d" % i, "name": "u"}, params)
            mc.append((time.perf_counter() - t0) * 1e3)
        cid = att.auth_data.credential_data.credential_id
        allow = [{"type": "public-key", "id": cid}]
        ctap.make_credential(cdh, {"id": "rk.example"}, {"id": b"rk", "name": "r"},
                             params, options={"rk": True})
        for _ in range(args.runs):
            t0 = time.perf_counter()
            ctap.get_assertion("example.com", cdh, allow_list=allow)
            ga.append((time.perf_counter() - t0) * 1e3)
            t0 = time.perf_counter()
            ctap.get_assertion("rk.example", cdh)
            ga_rk.append((time.perf_counter() - t0) * 1e3)
        for name, v in (("makeCredential FN-DSA-512 (non-discoverable)", mc),
                        ("getAssertion FN-DSA-512, allow list (key cached)", ga),
                        ("getAssertion FN-DSA-512, discoverable", ga_rk)):
            v.sort()
            print("%-50s n=%4d median %7.3f ms  p10 %7.3f  p90 %7.3f"
                  % (name, len(v), statistics.median(v), v[len(v) // 10],
                     v[len(v) * 9 // 10]))
    finally:
        d.stop()


if __name__ == "__main__":
    main()
