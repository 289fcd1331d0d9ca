"""Small helpers shared by the cocotb testbenches (Icarus Verilog)."""
import os
import sys

from cocotb.runner import get_runner

HW = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SIM_BUILD = os.environ.get("FA_HW_BUILD", os.path.join(HW, "build"))


def nvec(ci_default, full_default):
    """Number of random vectors: small in CI, more with FA_HW_FULL=1."""
    return full_default if os.environ.get("FA_HW_FULL") else ci_default


def rtl(*paths):
    return [os.path.join(HW, p) for p in paths]


def manifest(*names):
    """Sources of the RTL manifests (hw/<ip>/data/*.f, paths relative to
    hw/; hw/common/util/rtl_manifest.py), in order, each file once."""
    sys.path.insert(0, os.path.join(HW, "common", "util"))
    try:
        import rtl_manifest
    finally:
        sys.path.pop(0)
    return rtl_manifest.sources(*names)


def ip_sources(*ips):
    """Sources of the named IPs' manifests (hw/<ip>/data/<ip>.f)."""
    return manifest(*("%s/data/%s.f" % (ip, ip) for ip in ips))


TOP_MANIFEST = "top/data/falcon_accel_top.f"


def run(toplevel, sources, test_module, test_dir, parameters=None, tag="",
        extra_env=None, includes=()):
    """Build `toplevel` from `sources` with Icarus and run the cocotb tests
    of `test_module` (a module in test_dir). Fails the pytest on a failed
    cocotb test."""
    parameters = parameters or {}
    name = toplevel + ("_" + tag if tag else "") + "".join(
        "_%s%s" % (k, v) for k, v in sorted(parameters.items()))
    build_dir = os.path.join(SIM_BUILD, name)
    runner = get_runner("icarus")
    runner.build(verilog_sources=sources, hdl_toplevel=toplevel,
                 parameters=parameters, build_dir=build_dir,
                 includes=[os.path.join(HW, "top", "rtl")] + list(includes),
                 timescale=("1ns", "1ps"), always=True)
    env = {"PYTHONPATH": os.pathsep.join([test_dir, os.path.join(HW, "common", "dv")])}
    env.update(extra_env or {})
    xml = runner.test(hdl_toplevel=toplevel, test_module=test_module,
                      build_dir=build_dir, test_dir=test_dir,
                      parameters=parameters, extra_env=env)
    # get_results raises nothing; count failures from the xml.
    from cocotb.runner import get_results
    total, fails = get_results(xml)
    assert total > 0 and fails == 0, "%d of %d cocotb tests failed" % (fails, total)
