# fp64.f -- IEEE-754 binary64 adder and multiplier (hw/fp64)
# (Format and readers: hw/common/util/rtl_manifest.py.)
fp64/rtl/fp64_add.v
fp64/rtl/fp64_mul.v
