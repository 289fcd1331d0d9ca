# Sourced by the synthesis scripts: the RTL of falcon_accel_top, in
# dependency order. Needs HW (the hw/ directory).
FA_SRCS="$HW/fp64/rtl/fp64_add.v $HW/fp64/rtl/fp64_mul.v $HW/common/rtl/fa_delay.v
 $HW/common/rtl/fa_ram.v $HW/common/rtl/tf_core.v $HW/fft/rtl/fft_cmul.v $HW/fft/rtl/fft_bf.v
 $HW/fft/rtl/fft_roots_rom.v $HW/fft/rtl/fft_engine.v $HW/ntt/rtl/ntt_modmul.v
 $HW/ntt/rtl/ntt_bf.v $HW/ntt/rtl/ntt_tw_rom.v $HW/ntt/rtl/ntt_engine.v
 $HW/ntt/rtl/kem_modmul.v $HW/ntt/rtl/kem_tw_rom.v $HW/ntt/rtl/kem_bf.v $HW/ntt/rtl/kem_engine.v
 $HW/sampler/rtl/sampler_tables.v $HW/sampler/rtl/sampler_fpconv.v $HW/sampler/rtl/sampler_mulhi.v $HW/sampler/rtl/sampler_prng.v $HW/sampler/rtl/samplerz.v $HW/sampler/rtl/sampler_unit.v
 $HW/keccak/rtl/keccak_round.v $HW/keccak/rtl/keccak_unit.v
 $HW/ffsamp/rtl/ffsamp_engine.v $HW/ffsamp/rtl/ffsamp_host.v
 $HW/top/rtl/falcon_accel_top.v"
FA_SRCS=$(echo $FA_SRCS)
