/*
 * rtl_sampling.h -- the sampling protocol of the falcon-accel device on
 * top of the register-level driver (rtl_driver.c): SamplerZ and the
 * ffSampling engine driven with the library's sampler state (fa_prng,
 * fa_sampler_ctx), in one place for every caller of the driver (the host
 * rtl backend, src/backend_rtl/backend_rtl.c, and the SoC firmware,
 * soc/fw/fw_accel.c). The caller owns the locking and the tree policy.
 *
 * The device holds its own copy of the sampler PRNG (SZ_LOAD: key, block
 * counter, byte pointer). The caller keeps an fa_rtl_prng_mirror: which
 * fa_prng state (key and counter, 56 bytes, and ptr) the device holds, so
 * that a run of calls on one fa_prng loads it once. After a device call
 * the caller's fa_prng is brought to the device's state: fa_prng's buffer
 * is a function of the key and the counter only (blocks counter - 8 ..
 * counter - 1), so whatever number of refills the device made, the
 * device's current buffer (read out through target SZ_BUF), its counter
 * and its byte pointer are the state that the portable kernel would have
 * left (buffer, counter, ptr). A device that cannot hand the buffer over
 * gets one portable refill from its counter - 8 instead.
 *
 * Every function returns 0 when the device did the work, nonzero when it
 * did not; then nothing the caller gave (z, z0/z1, ctx) was written and
 * the mirror is forgotten, so the portable kernel can run from the
 * untouched state.
 */
#ifndef RTL_SAMPLING_H
#define RTL_SAMPLING_H

#include "inner.h"
#include "fa_rtl.h"

typedef struct {
	int valid;             /* the device's PRNG is (state, ptr) below */
	uint8_t state[56];
	size_t ptr;
} fa_rtl_prng_mirror;

/* The statistics entries a caller gives (any may be NULL). */
typedef struct {
	fa_rtl_kstat *samplerz, *sz_load, *ffsampling;
} fa_rtl_sampling_stats;

/* Forget what the device holds (after a reset, or when another user of
   the device may have moved its PRNG). */
void fa_rtl_prng_forget(fa_rtl_prng_mirror *m);

/* z = SamplerZ(mu, 1/isigma) with ctx->sigma_min on the device from
   ctx->p's state; ctx->p then advanced as the portable sampler would. */
int fa_rtl_samplerz_ctx(fa_rtl_transport *t, fa_rtl_prng_mirror *m,
	fa_rtl_sampling_stats *st, fa_sampler_ctx *ctx, int *z, fpr mu,
	fpr isigma);

/* Two samples with the same isigma: both, or neither (ctx restored). */
int fa_rtl_samplerz_pair_ctx(fa_rtl_transport *t, fa_rtl_prng_mirror *m,
	fa_rtl_sampling_stats *st, fa_sampler_ctx *ctx, int *z, fpr mu0,
	fpr mu1, fpr isigma);

/* One FFSAMPLING on the tree the device holds (committed before with
   fa_rtl_drv_fs_tree for this logn): t (2n fpr bit patterns: t0 then t1)
   in, z (2n: z0 then z1) out, from ctx->p's state with ctx->sigma_min;
   wdog: the engine's cycle watchdog (0 = none). On success ctx->p is
   advanced to the device's state. On failure z holds nothing useful and
   ctx is untouched. */
int fa_rtl_ffsampling_ctx(fa_rtl_transport *t, fa_rtl_prng_mirror *m,
	fa_rtl_sampling_stats *st, fa_sampler_ctx *ctx, const uint64_t *tv,
	uint64_t *z, unsigned logn, uint32_t wdog);

/* The prng_refill slot on the device: SZ_LOAD with p's key and counter
   (the device fills its buffer with blocks counter .. counter + 7, as the
   portable refill), the buffer read out (SZ_BUF) into p->buf, counter +
   8, ptr 0; the device then holds p's state (mirror set). Nonzero when
   the device did not; p is then untouched. */
int fa_rtl_prng_refill(fa_rtl_transport *t, fa_rtl_prng_mirror *m,
	fa_rtl_sampling_stats *st, fa_prng *p);

#endif
