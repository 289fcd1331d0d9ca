# fft.f -- FFT engine over binary64 (hw/fft; needs common, fp64)
# (Format and readers: hw/common/util/rtl_manifest.py.)
fft/rtl/fft_cmul.v
fft/rtl/fft_bf.v
fft/rtl/fft_roots_rom.v
fft/rtl/fft_engine.v
