#!/usr/bin/env python3
"""A board configuration for soc/boards/build_board.sh and check_board.sh.

    board_config.py CONFIG            # shell assignments (eval "$(...)")
    board_config.py CONFIG --json     # the same as JSON

Joins soc/data/configs.json's entry CONFIG (device, part, speed grade,
accelerator, RAM, mailbox, firmware options, SoC clock) with the board's
own data, soc/boards/<board>/board.json (the board whose "configs" lists
CONFIG: top module, RTL, LPF, input clock), and computes the ECP5 PLL's
dividers for the requested clock (ecp5_pll.py; the SoC's CLK_HZ is the
frequency they give, within 1 %, so the UART's bit time is right).
Another ECP5 board: an entry in configs.json, a directory here with a
board.json, a top and an LPF.
"""
import json
import os
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "soc", "util"))
import ecp5_pll  # noqa: E402
import soc_config  # noqa: E402  (the configuration, its firmware's stack and buffers)

# nextpnr-ecp5's device options by device name (configs.json "device")
NEXTPNR_DEVICE = {
    "LFE5U-12F": "--12k", "LFE5U-25F": "--25k", "LFE5U-45F": "--45k",
    "LFE5U-85F": "--85k", "LFE5UM-25F": "--um-25k", "LFE5UM-45F": "--um-45k",
    "LFE5UM-85F": "--um-85k", "LFE5UM5G-25F": "--um5g-25k",
    "LFE5UM5G-45F": "--um5g-45k", "LFE5UM5G-85F": "--um5g-85k",
}


def load(name):
    try:
        c = soc_config.get(name)
    except (KeyError, ValueError) as e:
        raise SystemExit("board_config: " + e.args[0])
    board = None
    for d in sorted(os.listdir(HERE)):
        bj = os.path.join(HERE, d, "board.json")
        if os.path.isfile(bj):
            with open(bj) as f:
                b = json.load(f)
            if name in b.get("configs", []):
                board, bdir = b, os.path.join(HERE, d)
                break
    if board is None:
        raise SystemExit(f"board_config: no soc/boards/*/board.json lists '{name}'")
    if c.get("family") != "ecp5":
        raise SystemExit(f"board_config: '{name}' is family {c.get('family')}; "
                         "this flow is for the ECP5 (nextpnr-ecp5)")
    if c["device"] not in NEXTPNR_DEVICE:
        raise SystemExit(f"board_config: device {c['device']} unknown to this flow")
    acc = c["accelerator"]
    p = acc["P"]
    lp = {1: 0, 2: 1, 4: 2}[p]
    logn = c["fw"]["max_logn"]
    pll = ecp5_pll.pll(board["clk_in_mhz"], c["clk_hz"] / 1e6)
    if abs(pll["error_pct"]) > 1.0:
        raise SystemExit(f"board_config: the PLL reaches {pll['fout_mhz']:g} MHz for "
                         f"clk_hz {c['clk_hz']}: {pll['error_pct']:+.2f} %, more than 1 %")
    clk_hz = int(round(pll["fout_mhz"] * 1e6))
    v = {
        "CFG_NAME": name, "CFG_BOARD": c["board"], "CFG_DEVICE": c["device"],
        "CFG_PART": c["part"], "CFG_PACKAGE": c["package"],
        "CFG_SPEED": c["speed_grade"], "CFG_CORE": c["core"],
        "CFG_NEXTPNR_DEVICE": NEXTPNR_DEVICE[c["device"]],
        "CFG_P": p, "CFG_LP": lp, "CFG_KECCAK": acc.get("KECCAK", 0),
        "CFG_SAMPLER": acc.get("SAMPLER", 0), "CFG_FFSAMP": acc.get("FFSAMP", 0),
        "CFG_MLKEM": acc.get("MLKEM", 0), "CFG_KEMENC": acc.get("KEMENC", 0),
        "CFG_RAM_KIB": c["ram_kib"], "CFG_MBOX": c["mbox"],
        "CFG_MAX_LOGN": logn, "CFG_STACK_KIB": soc_config.FW_STACK_KIB[logn],
        "CFG_REQ_MAX": soc_config.FW_MSG_MAX[logn], "CFG_RSP_MAX": soc_config.FW_MSG_MAX[logn],
        "CFG_CLK_HZ_REQ": c["clk_hz"], "CFG_CLK_HZ": clk_hz,
        "CFG_FREQ_MHZ": f"{clk_hz / 1e6:g}",
        "CFG_PLL_CLKI_DIV": pll["CLKI_DIV"], "CFG_PLL_CLKFB_DIV": pll["CLKFB_DIV"],
        "CFG_PLL_CLKOP_DIV": pll["CLKOP_DIV"], "CFG_PLL_CLKOP_CPHASE": pll["CLKOP_CPHASE"],
        "CFG_PLL_ERROR_PCT": f"{pll['error_pct']:.4f}",
        "CFG_PLL_FVCO_MHZ": f"{pll['fvco_mhz']:g}",
        "CFG_CLK_IN_MHZ": board["clk_in_mhz"],
        "CFG_CLK_IN_PORT": board["clk_in_port"],
        "CFG_TOP": board["top"],
        "CFG_TOP_SRCS": " ".join(os.path.join(bdir, r) for r in board["rtl"]),
        "CFG_LPF": os.path.join(bdir, board["lpf"]),
        "CFG_LOADER_BOARD": board["openfpgaloader_board"],
    }
    return v


def main():
    if len(sys.argv) < 2:
        raise SystemExit("usage: board_config.py CONFIG [--json]")
    v = load(sys.argv[1])
    if "--json" in sys.argv[2:]:
        print(json.dumps(v, indent=1))
    else:
        for k, x in v.items():
            print(f"{k}={shlex.quote(str(x))}")


if __name__ == "__main__":
    main()
