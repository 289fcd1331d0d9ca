#!/usr/bin/env python3
"""ML-KEM on the virtual SoC: keygen / encaps / decaps as firmware requests
(soc/fw/fw_main.c serve_kem, ops FA_SOC_OP_KEM_*) in four modes (fw: the
portable kernels on the CPU; accel: NTT, inverse, base multiplication on the
accelerator's q = 3329 mode and the four-sponge Keccak on its Keccak unit,
the CPU moving the words; dma: the same with DMA bursts), cycles from the
firmware's mcycle. Every result is checked: the modes give the same
bytes, decaps returns encaps's secret, and the host CLI (falcon-accel kem,
same seeds) gives the same ek / dk and decapsulates the SoC's ciphertext
to the same secret. Mode kemenc runs the ML-KEM-768 encapsulation whole
on the encaps sequencer (hw/mlkem, KEMENC = 1; its other ops as dma) and
must give the same bytes. Malformed requests (rank, lengths, an ek failing
the modulus check) get their error status in dma and kemenc mode, and the
firmware keeps serving.
The measurement goes out as JSON (stdout, or the file --out names): for
each mode and operation the cycles (mcycle around the library call), the
accelerator's counters and the kernel table of that operation, with the
command, the commit, the simulation and the firmware's SHA-256. Cycles
only: a time needs the clock a configuration reaches (results/boards.md).
  python3 soc/host/mlkem_soc_bench.py --cli build/tools/falcon-accel [--out FILE]
Env: FALCON_ACCEL_SOC_SIM / FALCON_ACCEL_SOC_FW as for soc_link.py."""
import argparse
import datetime
import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import soc_link  # noqa: E402
import soc_proto  # noqa: E402  (ops kem_*, modes: soc/data/soclink.json)

# the modes measured (codes: soc_proto.MODES); kemenc
# (FA_SOC_MODE_KEMENC): the dma path, but ML-KEM-768 encaps on the
# accelerator's encaps sequencer (hw/mlkem) when built in
MODES = ["fw", "accel", "dma", "kemenc"]
ST = soc_proto.STATUSES
D = bytes(range(32))
Z = bytes(range(32, 64))
M = bytes(range(100, 132))


def call(s, op, k, mode, fields):
    rep, out = s.call(op, k, soc_link.MODES[mode], fields)
    if rep["status"] != 0 or rep["lib_rc"] != 0:
        raise SystemExit("mlkem_soc_bench: %s k=%d mode %s: status %d lib_rc %d"
                         % (op, k, mode, rep["status"], rep["lib_rc"]))
    rep["kernels"] = soc_link.kernel_table(s)
    return rep, out


def host_check(cli, level, ek, dk, ct, ss):
    with tempfile.TemporaryDirectory() as t:
        p = lambda n: os.path.join(t, n)  # noqa: E731
        subprocess.run([cli, "kem", "keygen", "--level", str(level), "--seed", (D + Z).hex(),
                        "--dk", p("dk"), "--ek", p("ek")], check=True)
        if open(p("ek"), "rb").read() != ek or open(p("dk"), "rb").read() != dk:
            raise SystemExit("mlkem_soc_bench: the SoC's key pair differs from the host library's")
        open(p("ct"), "wb").write(ct)
        open(p("dk2"), "wb").write(dk)
        subprocess.run([cli, "kem", "decaps", "--dk", p("dk2"), "--ct", p("ct"),
                        "--ss", p("ss")], check=True)
        if open(p("ss"), "rb").read() != ss:
            raise SystemExit("mlkem_soc_bench: host decaps of the SoC's ciphertext differs")


def run(args):
    k = args.level // 256
    res = {}
    s = soc_link.Soc(args.fw)
    ref = None
    for mode in MODES:
        r_kg, (ek, dk) = call(s, "kem_keygen", k, mode, [D + Z])
        r_en, (ct, ss) = call(s, "kem_encaps", k, mode, [ek, M])
        r_de, (ss2,) = call(s, "kem_decaps", k, mode, [dk, ct])
        if ss2 != ss:
            raise SystemExit("mlkem_soc_bench: decaps != encaps secret in mode " + mode)
        out = (ek, dk, ct, ss)
        if ref is None:
            ref = out
        elif out != ref:
            raise SystemExit("mlkem_soc_bench: mode %s gives other bytes than fw" % mode)
        if mode == "kemenc" and args.level == 768 and r_en["accel_calls"] != 1:
            raise SystemExit("mlkem_soc_bench: kemenc encaps made %d device calls, not the "
                             "one KEM_ENCAPS (simulator built without KEMENC?)"
                             % r_en["accel_calls"])
        res[mode] = {"keygen": r_kg, "encaps": r_en, "decaps": r_de}
    # malformed requests get an error reply and the firmware keeps serving
    ek, dk, ct, ss = ref
    bad_ek = bytearray(ek)
    bad_ek[0], bad_ek[1] = 0xFF, bad_ek[1] | 0x0F     # coefficient 0 = 4095 >= q
    for op, kk, fields, want in (
            ("kem_keygen", 5, [D + Z], ST["bad_degree"]),
            ("kem_keygen", k, [D], ST["bad_length"]),
            ("kem_encaps", k, [ek[:-1], M], ST["bad_length"]),
            ("kem_decaps", k, [dk, ct[:-1]], ST["bad_length"]),
            ("kem_encaps", k, [bytes(bad_ek), M], ST["lib_error"])):  # modulus check
        for mode in ("dma", "kemenc"):
            rep, fs = s.call(op, kk, soc_link.MODES[mode], fields)
            if rep["status"] != want or fs:
                raise SystemExit("mlkem_soc_bench: malformed %s (%s): status %d, expected %d"
                                 " (%d fields)" % (op, mode, rep["status"], want, len(fs)))
            if want == ST["lib_error"] and rep["lib_rc"] != -9:    # FA_ERR_COEFF_RANGE
                raise SystemExit("mlkem_soc_bench: ek failing the modulus check (%s): lib_rc %d,"
                                 " expected -9" % (mode, rep["lib_rc"]))
    rep, out4 = s.call("kem_encaps", k, soc_link.MODES["kemenc"], [ek, M])
    if rep["status"] != 0 or tuple(out4) != (ct, ss):
        raise SystemExit("mlkem_soc_bench: kemenc encaps after the malformed requests: "
                         "status %d, result %s" % (rep["status"], "differs" if rep["status"] == 0
                                                   else "none"))
    rep, (ss3,) = s.call("kem_decaps", k, soc_link.MODES["dma"], [dk, ct])
    if rep["status"] != 0 or ss3 != ss:
        raise SystemExit("mlkem_soc_bench: no valid answer after the malformed requests")
    s.close()
    if args.cli:
        host_check(args.cli, args.level, *ref)
    return res


def git_commit():
    """HEAD, with " + uncommitted changes" when the SoC's sources (hw/,
    soc/rtl, soc/fw, src, include) differ from it."""
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "hw", "soc/rtl",
                                "soc/fw", "src", "include"], capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + (" + uncommitted changes" if dirty.strip() else "")


def record(res, args, cmd):
    """The measurement as data: for each mode and operation the reply's
    counters (cycles = mcycle around the library call), the kernel counters
    of that operation, and where it was measured."""
    fw = args.fw or os.environ.get("FALCON_ACCEL_SOC_FW", os.path.join(ROOT, "build/soc-fw/fw.elf"))
    sim = os.environ.get("FALCON_ACCEL_SOC_SIM", os.path.join(ROOT, "build/soc-sim/soc_sim"))
    rel = lambda p: os.path.relpath(p, ROOT) if os.path.abspath(p).startswith(ROOT + os.sep) else p  # noqa: E731
    modes = {}
    for m in MODES:
        modes[m] = {}
        for op in ("keygen", "encaps", "decaps"):
            r = res[m][op]
            modes[m][op] = {k: r[k] for k in ("cycles", "accel_compute_cycles", "accel_bus_cycles",
                                             "dma_cycles", "accel_calls")}
            modes[m][op]["kernels"] = r["kernels"]
    return {"generated_by": "soc/host/mlkem_soc_bench.py",
            "scheme": "ML-KEM-%d" % args.level,
            "command": cmd,
            "commit": git_commit(),
            "simulation": rel(sim),
            "fw": rel(fw),
            "fw_sha256": hashlib.sha256(open(fw, "rb").read()).hexdigest(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "unit": "cycles of the simulated SoC (mcycle around the library call, one operation, "
                    "fixed seeds d, z, m)",
            "checks": ["every mode gives the same bytes", "decaps returns encaps's secret",
                       "kemenc encaps is one KEM_ENCAPS device call" if args.level == 768 else
                       "kemenc: the dma path (no sequencer at this level)",
                       "malformed requests answered with their status in dma and kemenc mode, "
                       "the firmware serving after them"]
                      + (["the host library gives the same key pair and decapsulates the SoC's "
                          "ciphertext to the same secret"] if args.cli else []),
            "modes": modes}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--level", type=int, default=768, choices=[512, 768, 1024])
    ap.add_argument("--cli", help="host falcon-accel binary for the cross-check")
    ap.add_argument("--fw", help="firmware ELF (default as soc_link.py)")
    ap.add_argument("--out", help="write the measurement (JSON) to this file instead of stdout")
    a = ap.parse_args()
    res = run(a)
    cmd = "python3 soc/host/mlkem_soc_bench.py --level %d%s%s" % (
        a.level, " --cli <build>/tools/falcon-accel" if a.cli else "",
        " --out %s" % a.out if a.out else "")
    text = json.dumps(record(res, a, cmd), indent=1) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
        print("mlkem_soc_bench: all checks passed; measurement in %s" % a.out)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
