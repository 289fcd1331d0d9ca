# common.f -- shared blocks: delay line, RAM, the twiddle/butterfly core
# tf_core (which instantiates the FFT, NTT and ML-KEM butterflies: fp64,
# fft, ntt)
# (Format and readers: hw/common/util/rtl_manifest.py.)
common/rtl/fa_delay.v
common/rtl/fa_ram.v
common/rtl/tf_core.v
