#!/usr/bin/env python3
"""soc_link.py -- a Python client of the SoC host link (soc/doc/soclink.md;
constants from soc/host/soc_proto.py, generated from soc/data/soclink.json),
for measurements the CLI does not print: per-kernel cycles of one
operation as the firmware's CPU sees them (op KSTATS).

  python3 soc/host/soc_link.py kstats --mode accel --op sign_dyn --degree 512
  python3 soc/host/soc_link.py kstats --mode dma --op all --degree 512
  python3 soc/host/soc_link.py bench --fw build/ref-soc/ref_fw.elf --degree 512 \
      [--cli build/soc-host/tools/falcon-accel]

Starts build/soc-sim/soc_sim with build/soc-fw/fw.elf (or $FALCON_ACCEL_SOC_SIM,
$FALCON_ACCEL_SOC_FW, --fw).

kstats: generates a key on the firmware from a fixed seed (--host-keys
--cli CLI: the bench's key pair from the host library instead), runs the
operation in the given mode, then prints JSON: the operation's reply
counters and the per-kernel table. --op all: keygen, pubkey, sign_dyn,
sign_tree and verify, all in the given mode and on the inputs of
`falcon-accel bench --backend soc` (tools/cli_soc.c), one table each.

bench: the sequence and inputs of `falcon-accel bench --backend soc`
(--host-keys: no keygen on the firmware, the key pair from the host)
(keygen, pubkey, sign_dyn, sign_tree, verify; seed 0xA0.., nonce 0x40..,
the same message) on any firmware that answers the link protocol -- our
soc/fw/ or the reference's (soc/ref) -- printed as the CLI's JSON plus
SHA-256 of the outputs. Checks: the firmware accepts its own signatures
and rejects a corrupted one; with --cli, the host library (portable
backend) derives the same key pair from the seed and accepts both
signatures, so two firmwares measured so did the same work."""
import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import soc_proto  # noqa: E402  (generated: soc/util/gen_soclink.py)
from soc_proto import OPS, MODES, KERNELS  # noqa: E402,F401  (KERNELS: FA_RTL_K_* order)

FRAME, REQ, RSP = soc_proto.FRAME_MAGIC, soc_proto.REQ_MAGIC, soc_proto.RSP_MAGIC
# the modes of the Falcon ops (the others are for the ML-KEM ops only)
FALCON_MODES = [m for m in MODES if m not in soc_proto.KEM_ONLY_MODES]


class Soc:
    def __init__(self, fw=None):
        sim = os.environ.get("FALCON_ACCEL_SOC_SIM", os.path.join(ROOT, "build/soc-sim/soc_sim"))
        fw = fw or os.environ.get("FALCON_ACCEL_SOC_FW", os.path.join(ROOT, "build/soc-fw/fw.elf"))
        self.fw = fw
        self.p = subprocess.Popen([sim, "--fw", fw], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.seq = 0

    def call(self, op, logn=9, mode=0, fields=()):
        self.seq += 1
        body = struct.pack(soc_proto.REQ_HDR_FORMAT, REQ, OPS[op], logn, mode, self.seq)
        body += b"".join(struct.pack("<I", len(f)) + f for f in fields)
        self.p.stdin.write(struct.pack(soc_proto.FRAME_HDR_FORMAT, FRAME, len(body)) + body)
        self.p.stdin.flush()
        magic, n = struct.unpack(soc_proto.FRAME_HDR_FORMAT,
                                 self.p.stdout.read(soc_proto.FRAME_HDR))
        r = self.p.stdout.read(n)
        hdr = dict(zip(soc_proto.RSP_HDR_FIELDS,
                       struct.unpack(soc_proto.RSP_HDR_FORMAT, r[:soc_proto.RSP_HDR])))
        if magic != FRAME or hdr["magic"] != RSP or hdr["seq"] != self.seq:
            raise SystemExit("soc_link: bad reply")
        fs, pos = [], soc_proto.RSP_HDR
        while pos < len(r):
            (ln,) = struct.unpack("<I", r[pos:pos + 4])
            fs.append(r[pos + 4:pos + 4 + ln])
            pos += 4 + ln
        # the header's counters (status, lib_rc, cycles, aux, accel_...)
        return {k: v for k, v in hdr.items() if k not in ("magic", "op", "seq")}, fs

    def close(self):
        self.p.stdin.close()
        self.p.wait()


# The inputs of `falcon-accel bench --backend soc` (tools/cli_soc.c).
BENCH_SEED = bytes(0xA0 + i for i in range(48))
BENCH_NONCE = bytes(0x40 + i for i in range(40))
BENCH_MSG = b"falcon-accel soc bench message.\0"
BENCH_OPS = ["keygen", "pubkey", "sign_dyn", "sign_tree", "verify"]


def kernel_table(s):
    _, (tab,) = s.call("kstats")
    ks = {}
    n = soc_proto.KSTATS_RECORD_SIZE
    # an older firmware sends fewer kernels (the list only grows at its end)
    for i, name in enumerate(KERNELS[:len(tab) // n]):
        rec = dict(zip(soc_proto.KSTATS_RECORD_FIELDS,
                       struct.unpack(soc_proto.KSTATS_RECORD_FORMAT, tab[n * i:n * i + n])))
        if rec["calls"]:
            ks[name] = rec
    return ks


def kstats(args):
    logn = args.degree.bit_length() - 1
    s = Soc(args.fw)
    if args.op == "all":
        # every op in the given mode, on the bench's inputs
        mode, ops = MODES[args.mode], {}
        if args.host_keys:
            sk, pk = host_keygen(need_cli(args), args.degree)
        else:
            rep, (sk, pk) = s.call("keygen", logn, mode, [BENCH_SEED])
            ops["keygen"] = dict(rep, kernels=kernel_table(s))
        rep, _ = s.call("pubkey", logn, mode, [sk])
        ops["pubkey"] = dict(rep, kernels=kernel_table(s))
        rep, (sig,) = s.call("sign_dyn", logn, mode, [sk, BENCH_NONCE, BENCH_SEED, BENCH_MSG])
        ops["sign_dyn"] = dict(rep, kernels=kernel_table(s))
        rep, _ = s.call("sign_tree", logn, mode, [sk, BENCH_NONCE, BENCH_SEED, BENCH_MSG])
        ops["sign_tree"] = dict(rep, kernels=kernel_table(s))
        rep, _ = s.call("verify", logn, mode, [pk, sig, BENCH_MSG])
        ops["verify"] = dict(rep, kernels=kernel_table(s))
        s.close()
        bad = [k for k, v in ops.items() if v["status"] != 0 or v["lib_rc"] != 0]
        print(json.dumps(dict(op="all", degree=args.degree, mode=args.mode, ops=ops,
                              fw_sha256=sha256_file(s.fw))))
        return 1 if bad else 0
    seed, nonce, msg = bytes(range(48)), bytes(range(64, 104)), b"falcon-accel soc kstats"
    if args.host_keys and args.op != "keygen":
        # the bench's key pair (BENCH_SEED) from the host library
        sk, pk = host_keygen(need_cli(args), args.degree)
    else:
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
    ks = kernel_table(s)
    s.close()
    rep.update(op=args.op, degree=args.degree, mode=args.mode, kernels=ks)
    print(json.dumps(rep))
    return 0 if rep["status"] == 0 else 1


def need_cli(args):
    if not args.cli:
        raise SystemExit("soc_link: --host-keys needs --cli")
    return args.cli


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def host_keygen(cli, degree):
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([cli, "--backend", "portable", "keygen", "--degree", str(degree),
                            "--seed", BENCH_SEED.hex(), "--sk", os.path.join(d, "sk"),
                            "--pk", os.path.join(d, "pk")], capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit("soc_link: host keygen failed: " + r.stderr.strip())
        return open(os.path.join(d, "sk"), "rb").read(), open(os.path.join(d, "pk"), "rb").read()


def host_check(cli, degree, sk, pk, sigs):
    """The host library (portable backend): same key pair from the seed,
    and it accepts each signature."""
    out = {}
    with tempfile.TemporaryDirectory() as d:
        p = lambda n: os.path.join(d, n)
        r = subprocess.run([cli, "--backend", "portable", "keygen", "--degree", str(degree),
                            "--seed", BENCH_SEED.hex(), "--sk", p("sk"), "--pk", p("pk")],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit("soc_link: host keygen failed: " + r.stderr.strip())
        out["host_same_sk"] = open(p("sk"), "rb").read() == sk
        out["host_same_pk"] = open(p("pk"), "rb").read() == pk
        with open(p("pk2"), "wb") as f:
            f.write(pk)
        with open(p("msg"), "wb") as f:
            f.write(BENCH_MSG)
        for name, sig in sigs.items():
            with open(p("sig"), "wb") as f:
                f.write(sig)
            r = subprocess.run([cli, "--backend", "portable", "verify", "--pk", p("pk2"),
                                "--sig", p("sig"), "--in", p("msg")], capture_output=True, text=True)
            out["host_accepts_" + name] = r.returncode == 0
    return out


def bench(args):
    logn = args.degree.bit_length() - 1
    s = Soc(args.fw)
    res, outs, checks = [], {}, {}

    def one(op, fields, nout):
        rep, fs = s.call(op, logn, MODES[args.mode], fields)
        if rep["status"] != 0 or rep["lib_rc"] != 0 or len(fs) != nout:
            raise SystemExit("soc_link: %s answered status %d, lib_rc %d" % (op, rep["status"], rep["lib_rc"]))
        row = dict(op=op, degree=args.degree, runs=1, cycles=rep["cycles"],
                   accel_compute_cycles=rep["accel_compute_cycles"],
                   accel_bus_cycles=rep["accel_bus_cycles"], dma_cycles=rep["dma_cycles"],
                   accel_calls=rep["accel_calls"])
        if op == "sign_tree":
            row["expand_cycles"] = rep["aux"]
        if op == "pubkey":
            row["h_cycles"] = rep["aux"]  # h = g/f alone (fw_main.c)
        res.append(row)
        return fs

    if args.host_keys:
        # the key pair from the host library (the same bytes as the
        # firmware's keygen from this seed; the reference run checks it):
        # skips the longest simulation when keygen is not wanted
        if not args.cli:
            raise SystemExit("soc_link: --host-keys needs --cli")
        sk, pk = host_keygen(args.cli, args.degree)
    else:
        sk, pk = one("keygen", [BENCH_SEED], 2)
    (pk2,) = one("pubkey", [sk], 1)
    (sig_dyn,) = one("sign_dyn", [sk, BENCH_NONCE, BENCH_SEED, BENCH_MSG], 1)
    (sig_tree,) = one("sign_tree", [sk, BENCH_NONCE, BENCH_SEED, BENCH_MSG], 1)
    one("verify", [pk, sig_dyn, BENCH_MSG], 0)
    # negative: a corrupted signature must be rejected by the same firmware
    bad = bytearray(sig_dyn)
    bad[len(bad) // 2] ^= 0x10
    rep, _ = s.call("verify", logn, MODES[args.mode], [pk, bytes(bad), BENCH_MSG])
    s.close()
    checks["pubkey_matches_keygen"] = pk2 == pk
    checks["rejects_corrupted_sig"] = rep["status"] == 0 and rep["lib_rc"] != 0
    checks["sig_dyn_equals_sig_tree"] = sig_dyn == sig_tree
    if args.cli:
        checks.update(host_check(args.cli, args.degree, sk, pk,
                                 {"sig_dyn": sig_dyn, "sig_tree": sig_tree}))
    for name, v in [("sk", sk), ("pk", pk), ("sig_dyn", sig_dyn), ("sig_tree", sig_tree)]:
        outs[name + "_sha256"] = hashlib.sha256(v).hexdigest()
    outs["sig_dyn_len"] = len(sig_dyn)
    data = dict(implementation=args.name, fw=os.path.relpath(s.fw, ROOT), fw_sha256=sha256_file(s.fw),
                soc_mode=args.mode, machine="simulated falcon-accel SoC (VexRiscv RV32IMAC, Verilator)",
                clock="cycles only; ms at a configuration's routed clock: results/boards.json", results=res, outputs=outs, checks=checks)
    print(json.dumps(data))
    # sig_dyn == sig_tree is reported, not required
    failed = [k for k, v in checks.items() if not v and k != "sig_dyn_equals_sig_tree"]
    if failed:
        sys.stderr.write("soc_link: checks failed: %s\n" % ", ".join(failed))
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["kstats", "bench"])
    ap.add_argument("--mode", choices=FALCON_MODES, default=None,
                    help="kernels: fw, accel or dma (kstats default accel, bench default fw)")
    ap.add_argument("--op", choices=["keygen", "pubkey", "sign_dyn", "sign_tree", "verify", "all"],
                    default="sign_dyn")
    ap.add_argument("--degree", type=int, choices=[2 << i for i in range(10)], default=512,
                    help="512 or 1024 (smaller powers of two for quick checks)")
    ap.add_argument("--fw", help="firmware ELF (default $FALCON_ACCEL_SOC_FW, else build/soc-fw/fw.elf)")
    ap.add_argument("--cli", help="bench: falcon-accel CLI for the host-library checks")
    ap.add_argument("--name", default="falcon-accel", help="bench: implementation name in the JSON")
    ap.add_argument("--host-keys", action="store_true",
                    help="bench: take the key pair from the host library (--cli) instead of "
                    "timing keygen on the firmware")
    a = ap.parse_args()
    if a.mode is None:
        a.mode = "accel" if a.cmd == "kstats" else "fw"
    return kstats(a) if a.cmd == "kstats" else bench(a)


if __name__ == "__main__":
    sys.exit(main())
