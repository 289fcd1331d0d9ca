# ffsamp.f -- fast-Fourier sampling engine and its host interface
# (hw/ffsamp; needs fp64, fft (roots ROM), sampler)
# (Format and readers: hw/common/util/rtl_manifest.py.)
ffsamp/rtl/ffsamp_engine.v
ffsamp/rtl/ffsamp_host.v
