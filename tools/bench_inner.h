/*
 * bench_inner.h -- what the benchmarks take from the library's internals
 * (tools/bench.c, hw/syn/rtl_cycles.c), and nothing more: they time and
 * check single kernels, which the public API (falcon_accel.h) does not
 * expose.
 *
 *   the kernel seam (src/kernels.h): struct fa_kernels, the fa_k_*
 *     dispatchers, fa_kernels_resolve, the portable kernels
 *     fa_<slot>_portable, FA_Q, MKN, the fpr type and its constructors;
 *   the sampler's inputs: fa_sampler_ctx, fa_prng_init, fa_sigma_min;
 *   fa_fft_roots (inputs of modulus 1 for the FFT-domain products);
 *   fa_backend_rtl, the Verilated backend's kernel table (rtl_cycles.c
 *     calls it directly, without the fallback dispatcher).
 *
 * Not the library's private header (src/inner.h): no scheme internals,
 * codecs or scratch layouts. Include paths: include/, src/, tools/.
 */
#ifndef FA_BENCH_INNER_H
#define FA_BENCH_INNER_H

#include "kernels.h"

#if defined(FA_HAVE_BACKEND_RTL) && FA_HAVE_BACKEND_RTL
extern const struct fa_kernels fa_backend_rtl;
#endif

#endif
