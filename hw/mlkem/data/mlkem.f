# mlkem.f -- the ML-KEM-768 encapsulation sequencer (hw/mlkem; needs keccak)
# (Format and readers: hw/common/util/rtl_manifest.py.)
mlkem/rtl/mlkem_zeta_rom.v
mlkem/rtl/mlkem_encaps.v
