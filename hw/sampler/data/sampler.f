# sampler.f -- SamplerZ and its PRNG (hw/sampler; needs fp64)
# (Format and readers: hw/common/util/rtl_manifest.py.)
sampler/rtl/sampler_tables.v
sampler/rtl/sampler_fpconv.v
sampler/rtl/sampler_mulhi.v
sampler/rtl/sampler_prng.v
sampler/rtl/samplerz.v
sampler/rtl/sampler_unit.v
