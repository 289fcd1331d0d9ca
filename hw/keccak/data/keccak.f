# keccak.f -- Keccak-f[1600] unit (hw/keccak)
# (Format and readers: hw/common/util/rtl_manifest.py.)
keccak/rtl/keccak_round.v
keccak/rtl/keccak_unit.v
