# ffsamp_unit.f -- the unit-test top of the ffSampling engine
# (hw/ffsamp/dv/test_ffsamp_unit.py), not part of falcon_accel_top
# (Format and readers: hw/common/util/rtl_manifest.py.)
-f ffsamp/data/ffsamp.f
ffsamp/rtl/ffsamp_unit.v
