"""The Arty A7-100T LiteX project generator (hw/boards/arty_a7_100t.py):
generate the Vivado project into a temporary directory (no Vivado run) and
check that falcon_accel_top is in it, wired as an AXI4-Lite slave, and
decoded at the base address of hw/boards/data/boards.json with the window
size of hw/top/data/regmap.json -- the only things the register-level driver
(src/backend_rtl/fa_rtl_regs.h) needs. Under CI=true a missing LiteX fails.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
BOARDS = os.path.dirname(HERE)
HW = os.path.dirname(BOARDS)
ROOT = os.path.dirname(HW)
GEN = os.path.join(BOARDS, "arty_a7_100t.py")


def _need_litex():
    missing = [m for m in ("litex", "litedram", "liteeth", "litex_boards",
                           "pythondata_cpu_vexriscv", "pythondata_software_picolibc")
               if importlib.util.find_spec(m) is None]
    if missing:
        msg = "LiteX packages missing (%s): run scripts/setup_board.sh" % ", ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)


def _load_gen():
    spec = importlib.util.spec_from_file_location("arty_a7_100t", GEN)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    _need_litex()
    out = tmp_path_factory.mktemp("arty")
    r = subprocess.run([sys.executable, GEN, "--output-dir", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return out


def _cfg():
    with open(os.path.join(BOARDS, "data", "boards.json")) as f:
        return json.load(f)["arty_a7_100t"]


def _window():
    with open(os.path.join(HW, "top", "data", "regmap.json")) as f:
        aw = json.load(f)["addr_width"]
    return aw, 1 << aw


def test_region_in_csr_json_and_mem_h(project):
    cfg, (aw, size) = _cfg(), _window()
    mems = json.load(open(project / "csr.json"))["memories"]
    assert mems["falcon_accel"] == {"base": cfg["accel_base"], "size": size, "type": "io"}
    # no other region overlaps the accelerator's window
    for name, m in mems.items():
        if name != "falcon_accel":
            assert m["base"] + m["size"] <= cfg["accel_base"] or m["base"] >= cfg["accel_base"] + size, name
    memh = (project / "software" / "include" / "generated" / "mem.h").read_text()
    base = re.search(r"#define FALCON_ACCEL_BASE (0x[0-9a-fA-F]+)L?", memh)
    assert base and int(base.group(1), 16) == cfg["accel_base"]
    sz = re.search(r"#define FALCON_ACCEL_SIZE (0x[0-9a-fA-F]+)", memh)
    assert sz and int(sz.group(1), 16) == size


def test_instance_wired_and_decoded(project):
    cfg, (aw, size) = _cfg(), _window()
    v = (project / "gateware" / "digilent_arty.v").read_text()
    insts = re.findall(r"^falcon_accel_top #\((.*?)\) u_falcon_accel \((.*?)\);", v, re.S | re.M)
    assert len(insts) == 1, "falcon_accel_top must be instantiated exactly once"
    params, ports = insts[0]
    conn = dict(re.findall(r"\.(\w+)\s*\(\s*(.*?)\s*\),?\s*$", ports, re.M))
    p = dict(re.findall(r"\.(\w+)\s*\(\s*\d+'d(\d+)\s*\)", params))
    assert int(p["P"]) == cfg["lanes"] and int(p["SAMPLER"]) == cfg["sampler"]
    assert 1 << int(p["LP"]) == cfg["lanes"]
    axil = ["awaddr", "awvalid", "awready", "wdata", "wstrb", "wvalid", "wready", "bresp",
            "bvalid", "bready", "araddr", "arvalid", "arready", "rdata", "rresp", "rvalid", "rready"]
    for s in axil:
        c = conn.get("s_axil_" + s, "")
        assert c and not re.fullmatch(r"\d+'d\d+", c), "s_axil_%s not connected: %r" % (s, c)
    assert conn["aclk"] == "sys_clk"
    assert conn["s_axil_awaddr"].endswith("[%d:0]" % (aw - 1))
    assert conn["s_axil_araddr"].endswith("[%d:0]" % (aw - 1))
    # the AXI4-Lite signals come out of LiteX's Wishbone-to-AXI-Lite bridge
    awaddr = conn["s_axil_awaddr"].split("[")[0]
    assert re.search(r"^\s*%s <= " % re.escape(awaddr), v, re.M), "awaddr not driven"
    # the shared Wishbone decoder (30-bit word address) selects exactly the
    # window [accel_base, accel_base + size)
    lo = aw - 2
    dec = re.findall(r"\(shared_adr\[29:(\d+)\] == \d+'d(\d+)\)", v)
    assert (str(lo), str(cfg["accel_base"] >> aw)) in dec, dec


def test_vivado_project_files(project):
    gw = project / "gateware"
    tcl = (gw / "digilent_arty.tcl").read_text()
    assert "xc7a100tcsg324-1" in tcl
    srcs = subprocess.run(["sh", "-c", '. "$HW/syn/sources.sh"; echo $FA_SRCS'],
                          env=dict(os.environ, HW=HW), capture_output=True, text=True,
                          check=True).stdout.split()
    assert srcs
    for s in srcs:
        assert "read_verilog {%s}" % s in tcl, s
    assert "-include_dirs {%s}" % os.path.join(HW, "top", "rtl") in tcl
    assert "VexRiscv" in tcl
    xdc = (gw / "digilent_arty.xdc").read_text()
    assert re.search(r"create_clock -name clk100 -period 10\.0", xdc)
    assert (gw / "build_digilent_arty.sh").exists()


def test_bad_arguments_named():
    _need_litex()
    gen = _load_gen()
    with pytest.raises(ValueError, match="0x90001000"):
        gen.build_soc(2, 1, 100e6, 0x90001000, False)
    with pytest.raises(ValueError, match="lanes"):
        gen.build_soc(3, 1, 100e6, 0x90000000, False)
