# Sourced by the synthesis and SoC scripts: the RTL of falcon_accel_top, in
# dependency order, from the manifests (hw/top/data/falcon_accel_top.f and
# the hw/<ip>/data/<ip>.f it reads; hw/common/util/rtl_manifest.py). Needs
# HW (the hw/ directory). Sets FA_SRCS (absolute paths, space-separated).
FA_SRCS=$(python3 "$HW/common/util/rtl_manifest.py" top/data/falcon_accel_top.f) \
  || { echo "sources.sh: cannot read the RTL manifests" >&2; exit 1; }
