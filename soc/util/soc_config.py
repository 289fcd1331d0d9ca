#!/usr/bin/env python3
"""soc_config.py -- one configuration of soc/data/configs.json for the
build scripts: `soc_config.py NAME --shell` prints shell assignments
(P LP KECCAK SAMPLER FFSAMP MLKEM KEMENC RAM_KIB MBOX CLK_HZ MAX_LOGN
FAMILY PART SPEED_GRADE PACKAGE); `soc_config.py NAME --json` the entry; `soc_config.py NAME --fw-make` the
soc/fw make variables of the configuration's firmware (RAM size, stack,
largest degree, host-link buffers, optimisation);
`soc_config.py --list` the names. An unknown name or a malformed entry is
an error that names it."""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATH = os.path.join(ROOT, "soc", "data", "configs.json")
UNITS = ("KECCAK", "SAMPLER", "FFSAMP", "MLKEM", "KEMENC")


def load():
    with open(PATH, encoding="utf-8") as f:
        data = json.load(f)
    names = [c["name"] for c in data["configs"]]
    if len(set(names)) != len(names):
        raise ValueError(f"{PATH}: a configuration name is used twice")
    return data["configs"]


def get(name):
    for c in load():
        if c["name"] == name:
            check(c)
            return c
    raise KeyError(f"soc_config: no configuration '{name}' in {PATH} "
                   f"(there are: {', '.join(c['name'] for c in load())})")


def check(c):
    acc = c["accelerator"]
    if acc.get("P") not in (1, 2, 4):
        raise ValueError(f"{c['name']}: accelerator.P must be 1, 2 or 4")
    for u in UNITS:
        if acc.get(u) not in (0, 1):
            raise ValueError(f"{c['name']}: accelerator.{u} must be 0 or 1")
    kib = c["ram_kib"]
    if kib < 16 or kib > 1024 or kib & (kib - 1):
        raise ValueError(f"{c['name']}: ram_kib must be a power of two in 16..1024")
    if c["mbox"] not in (0, 1):
        raise ValueError(f"{c['name']}: mbox must be 0 or 1")
    if c["fw"]["max_logn"] not in (9, 10):
        raise ValueError(f"{c['name']}: fw.max_logn must be 9 or 10")


# the firmware's stack and host-link buffers by the largest degree served
# (soc/boards/README.md "Firmware": the measured stack high-water mark for
# logn 9 with margin; the simulation's 64 KiB for logn 10)
FW_STACK_KIB = {9: 18, 10: 64}
FW_MSG_MAX = {9: 8192, 10: 32768}


def fw_make(c):
    """soc/fw make variables for the configuration's firmware (the default
    build, logn 10 in 1 MiB, is the sim configuration's)."""
    logn = c["fw"]["max_logn"]
    if c["name"] == "sim":
        return ""
    return ("RAM_KIB=%d STACK_KIB=%d MAX_LOGN=%d REQ_MAX=%d RSP_MAX=%d FW_OPT=-Os "
            "LIB_BUILD_TYPE=MinSizeRel" % (c["ram_kib"], FW_STACK_KIB[logn], logn,
                                            FW_MSG_MAX[logn], FW_MSG_MAX[logn]))


def shell(c):
    acc = c["accelerator"]
    v = {"P": acc["P"], "LP": {1: 0, 2: 1, 4: 2}[acc["P"]]}
    v.update({u: acc[u] for u in UNITS})
    v.update(RAM_KIB=c["ram_kib"], MBOX=c["mbox"], CLK_HZ=c["clk_hz"],
             MAX_LOGN=c["fw"]["max_logn"], FAMILY=c["family"] or "",
             PART=c["part"] or "", SPEED_GRADE=c["speed_grade"] or "",
             PACKAGE=c["package"] or "")
    return "\n".join(f"{k}='{val}'" for k, val in v.items())


def main(argv):
    if argv[1:] == ["--list"]:
        print("\n".join(c["name"] for c in load()))
        return 0
    if len(argv) != 3 or argv[2] not in ("--shell", "--json", "--fw-make"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        c = get(argv[1])
    except (KeyError, ValueError) as e:
        print(e.args[0], file=sys.stderr)
        return 2
    if argv[2] == "--fw-make":
        print(fw_make(c))
    else:
        print(shell(c) if argv[2] == "--shell" else json.dumps(c, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
