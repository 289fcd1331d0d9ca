#!/usr/bin/env python3
"""soc_link.py -- a Python client of the SoC host link (fw/soc_proto.h),
for measurements the CLI does not print: per-kernel cycles of one
operation as the firmware's CPU sees them (op KSTATS).

  python3 hw/soc/util/soc_link.py kstats --mode accel --op sign_dyn --degree 512

Starts build/soc-sim/soc_sim with build/soc-fw/fw.elf (or $FALCON_ACCEL_SOC_SIM,
$FALCON_ACCEL_SOC_FW), generates a key on the firmware from a fixed seed,
runs the operation in the given mode, then prints JSON: the operation's
reply counters and the per-kernel table."""
import argparse
import json
import os
import struct
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
FRAME, REQ, RSP = 0x4D52464B, 0x51434F53, 0x52434F53
OPS = {"ping": 1, "keygen": 2, "sign_dyn": 3, "sign_tree": 4, "verify": 5, "pubkey": 6, "kstats": 7}
MODES = {"fw": 0, "accel": 1, "dma": 2}
# fa_rtl.h FA_RTL_K_* order (src/backend_rtl/backend_rtl.c names)
KERNELS = ["fft", "ifft", "mq_ntt", "mq_intt", "mq_poly_mul_ntt", "poly_add", "poly_sub",
           "poly_neg", "poly_adj_fft", "poly_mul_fft", "poly_muladj_fft",
           "poly_mulselfadj_fft", "poly_mulconst"]


class Soc:
    def __init__(self):
        sim = os.environ.get("FALCON_ACCEL_SOC_SIM", os.path.join(ROOT, "build/soc-sim/soc_sim"))
        fw = os.environ.get("FALCON_ACCEL_SOC_FW", os.path.join(ROOT, "build/soc-fw/fw.elf"))
        self.p = subprocess.Popen([sim, "--fw", fw], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.seq = 0

    def call(self, op, logn=9, mode=0, fields=()):
        self.seq += 1
        body = struct.pack("<IHBBI", REQ, OPS[op], logn, mode, self.seq)
        body += b"".join(struct.pack("<I", len(f)) + f for f in fields)
        self.p.stdin.write(struct.pack("<II", FRAME, len(body)) + body)
        self.p.stdin.flush()
        magic, n = struct.unpack("<II", self.p.stdout.read(8))
        r = self.p.stdout.read(n)
        (m, rop, st, seq, rc, cyc, aux, acc, bus, dma, kc) = struct.unpack("<IHHIiQQIIII", r[:48])
        if magic != FRAME or m != RSP or seq != self.seq:
            raise SystemExit("soc_link: bad reply")
        fs, pos = [], 48
        while pos < len(r):
            (ln,) = struct.unpack("<I", r[pos:pos + 4])
            fs.append(r[pos + 4:pos + 4 + ln])
            pos += 4 + ln
        return dict(status=st, lib_rc=rc, cycles=cyc, aux=aux, accel_compute_cycles=acc,
                    accel_bus_cycles=bus, dma_cycles=dma, accel_calls=kc), fs

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def kstats(args):
    logn = {512: 9, 1024: 10}[args.degree]
    s = Soc()
    seed, nonce, msg = bytes(range(48)), bytes(range(64, 104)), b"falcon-accel soc kstats"
    r, (sk, pk) = s.call("keygen", logn, 0, [seed])
    if args.op == "keygen":
        fields = [seed]
    elif args.op == "pubkey":
        fields = [sk]
    elif args.op == "verify":
        r, (sig,) = s.call("sign_dyn", logn, 0, [sk, nonce, seed, msg])
        fields = [pk, sig, msg]
    else:
        fields = [sk, nonce, seed, msg]
    rep, _ = s.call(args.op, logn, MODES[args.mode], fields)
    _, (tab,) = s.call("kstats")
    s.close()
    ks = {}
    for i, name in enumerate(KERNELS):
        calls, comp, xfer = struct.unpack("<IQQ", tab[20 * i:20 * i + 20])
        if calls:
            ks[name] = dict(calls=calls, compute_cycles=comp, cycles_with_transfer=xfer)
    rep.update(op=args.op, degree=args.degree, mode=args.mode, kernels=ks)
    print(json.dumps(rep))
    return 0 if rep["status"] == 0 else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["kstats"])
    ap.add_argument("--mode", choices=list(MODES), default="accel")
    ap.add_argument("--op", choices=["keygen", "pubkey", "sign_dyn", "sign_tree", "verify"],
                    default="sign_dyn")
    ap.add_argument("--degree", type=int, choices=[512, 1024], default=512)
    return kstats(ap.parse_args())


if __name__ == "__main__":
    sys.exit(main())
