# falcon_accel_top.f -- the accelerator: every IP in order, then the top
# (include directory: hw/top/rtl, for fa_regs.vh). The list every tool
# builds falcon_accel_top from
# (Format and readers: hw/common/util/rtl_manifest.py.)
-f fp64/data/fp64.f
-f common/data/common.f
-f fft/data/fft.f
-f ntt/data/ntt.f
-f sampler/data/sampler.f
-f keccak/data/keccak.f
-f ffsamp/data/ffsamp.f
-f mlkem/data/mlkem.f
-f eksum/data/eksum.f
top/rtl/falcon_accel_top.v
