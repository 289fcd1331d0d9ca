# ntt.f -- NTT engines mod 12289 (Falcon) and mod 3329 (ML-KEM) (hw/ntt;
# needs common)
# (Format and readers: hw/common/util/rtl_manifest.py.)
ntt/rtl/ntt_modmul.v
ntt/rtl/ntt_bf.v
ntt/rtl/ntt_tw_rom.v
ntt/rtl/ntt_engine.v
ntt/rtl/kem_modmul.v
ntt/rtl/kem_tw_rom.v
ntt/rtl/kem_bf.v
ntt/rtl/kem_engine.v
