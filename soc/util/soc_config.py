#!/usr/bin/env python3
"""soc_config.py -- one configuration of soc/data/configs.json for the
build scripts: `soc_config.py NAME --shell` prints shell assignments
(P LP KECCAK SAMPLER FFSAMP MLKEM KEMENC RAM_KIB MBOX CLK_HZ MAX_LOGN
FAMILY PART SPEED_GRADE PACKAGE); `soc_config.py NAME --json` the entry;
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
    if len(argv) != 3 or argv[2] not in ("--shell", "--json"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        c = get(argv[1])
    except (KeyError, ValueError) as e:
        print(e.args[0], file=sys.stderr)
        return 2
    print(shell(c) if argv[2] == "--shell" else json.dumps(c, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
