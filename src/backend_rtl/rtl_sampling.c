/*
 * rtl_sampling.c -- SamplerZ and ffSampling on the falcon-accel device
 * with the library's sampler state (rtl_sampling.h): the PRNG mirror,
 * SZ_LOAD when the device does not hold the caller's state, the command
 * through the register-level driver, then the caller's fa_prng brought to
 * the device's (counter, ptr).
 *
 * Timing: the device's cycles and the bytes it reads depend on secret
 * values only through SamplerZ's rejection loops (hw/sampler/doc,
 * hw/ffsamp/doc), as in the portable sampler; here the host side adds one
 * buffer read-out (or one refill) when the counter moved (the number of
 * refills the device made is the same leak as the portable kernel's).
 */
#include <string.h>

#include "rtl_sampling.h"
#include "fa_rtl_regs.h"

static uint64_t get_ctr(const fa_prng *p)
{
	uint64_t x = 0;
	int i;

	for (i = 7; i >= 0; i --) {
		x = (x << 8) | p->state[48 + i];
	}
	return x;
}

static void set_ctr(fa_prng *p, uint64_t x)
{
	int i;

	for (i = 0; i < 8; i ++) {
		p->state[48 + i] = (uint8_t)(x >> (8 * i));
	}
}

static fa_rtl_kstat *k_sz(fa_rtl_sampling_stats *st)
{
	return st != NULL ? st->samplerz : NULL;
}

static fa_rtl_kstat *k_load(fa_rtl_sampling_stats *st)
{
	return st != NULL ? st->sz_load : NULL;
}

static fa_rtl_kstat *k_fs(fa_rtl_sampling_stats *st)
{
	return st != NULL ? st->ffsampling : NULL;
}

void fa_rtl_prng_forget(fa_rtl_prng_mirror *m)
{
	m->valid = 0;
}

static void mirror_set(fa_rtl_prng_mirror *m, const fa_prng *p)
{
	memcpy(m->state, p->state, sizeof m->state);
	m->ptr = p->ptr;
	m->valid = 1;
}

/* The device's PRNG := p's state (SZ_LOAD: key, counter - 8, ptr: the
   device regenerates the buffer), unless the mirror says it holds it. */
static int prng_sync(fa_rtl_transport *t, fa_rtl_prng_mirror *m,
	fa_rtl_sampling_stats *st, const fa_prng *p)
{
	uint64_t ctr = get_ctr(p);

	if (m->valid && m->ptr == p->ptr
		&& memcmp(m->state, p->state, sizeof m->state) == 0)
	{
		return 0;
	}
	m->valid = 0;
	if (ctr < 8 || p->ptr >= sizeof p->buf
		|| fa_rtl_drv_sz_load(t, p->state, ctr - 8, (unsigned)p->ptr,
		k_load(st)) != 0)
	{
		return -1;
	}
	mirror_set(m, p);
	return 0;
}

/* p (at counter ctr) := the state the device reports: counter nctr (a
   multiple of 8 blocks later, at most max_refills refills), byte pointer
   nptr. Checked first; p untouched when implausible. The buffer (blocks
   nctr - 8 .. nctr - 1) is read out of the device (SZ_BUF) or, where the
   device cannot, recomputed by one portable refill. */
static int prng_adopt(fa_rtl_transport *t, fa_rtl_sampling_stats *st,
	fa_prng *p, uint64_t ctr, uint64_t nctr, unsigned nptr,
	uint64_t max_refills)
{
	uint64_t d;

	if (nctr < ctr || nptr >= sizeof p->buf) {
		return -1;
	}
	d = nctr - ctr;
	if (d % 8 != 0 || d / 8 > max_refills) {
		return -1;
	}
	if (d != 0) {
		/* the buffer of blocks nctr - 8 .. nctr - 1: the last refill */
		if (fa_rtl_drv_sz_buf(t, p->buf, k_load(st)) == 0) {
			set_ctr(p, nctr);
		} else {
			set_ctr(p, nctr - 8);
			fa_prng_refill_portable(p);
		}
	}
	p->ptr = nptr;
	return 0;
}

int fa_rtl_samplerz_ctx(fa_rtl_transport *t, fa_rtl_prng_mirror *m,
	fa_rtl_sampling_stats *st, fa_sampler_ctx *ctx, int *z, fpr mu,
	fpr isigma)
{
	uint64_t ctr, nctr = 0;
	unsigned nptr = 0;
	int zz = 0;

	if (prng_sync(t, m, st, &ctx->p) != 0) {
		return -1;
	}
	ctr = get_ctr(&ctx->p);
	/* the device's PRNG moves on, even on an error */
	m->valid = 0;
	if (fa_rtl_drv_samplerz(t, fpr_bits(mu), fpr_bits(isigma),
		fpr_bits(ctx->sigma_min), &zz, &nctr, &nptr, k_sz(st)) != 0)
	{
		return -1;
	}
	/* a sample reads at most 255 trials of 18 bytes: a few refills */
	if (prng_adopt(t, st, &ctx->p, ctr, nctr, nptr, 16) != 0) {
		return -1;
	}
	mirror_set(m, &ctx->p);
	*z = zz;
	return 0;
}

int fa_rtl_samplerz_pair_ctx(fa_rtl_transport *t, fa_rtl_prng_mirror *m,
	fa_rtl_sampling_stats *st, fa_sampler_ctx *ctx, int *z, fpr mu0,
	fpr mu1, fpr isigma)
{
	fa_prng save;
	int z0 = 0, z1 = 0;

	memcpy(&save, &ctx->p, sizeof save);
	if (fa_rtl_samplerz_ctx(t, m, st, ctx, &z0, mu0, isigma) != 0) {
		return -1;
	}
	if (fa_rtl_samplerz_ctx(t, m, st, ctx, &z1, mu1, isigma) != 0) {
		memcpy(&ctx->p, &save, sizeof save);
		m->valid = 0;
		return -1;
	}
	z[0] = z0;
	z[1] = z1;
	return 0;
}

int fa_rtl_ffsampling_ctx(fa_rtl_transport *t, fa_rtl_prng_mirror *m,
	fa_rtl_sampling_stats *st, fa_sampler_ctx *ctx, const uint64_t *tv,
	uint64_t *z, unsigned logn, uint32_t wdog)
{
	size_t n = (size_t)1 << logn;
	uint64_t ctr, nctr = 0;
	unsigned nptr = 0;

	if (logn < 1 || logn > 10 || prng_sync(t, m, st, &ctx->p) != 0) {
		return -1;
	}
	ctr = get_ctr(&ctx->p);
	m->valid = 0;
	if (fa_rtl_drv_ffsampling(t, tv, tv + n, z, z + n, logn,
		fpr_bits(ctx->sigma_min), 0, wdog, &nctr, &nptr, k_fs(st)) != 0)
	{
		return -1;
	}
	/* 2n samples, each at most a few refills */
	if (prng_adopt(t, st, &ctx->p, ctr, nctr, nptr, (uint64_t)n << 8) != 0) {
		return -1;
	}
	mirror_set(m, &ctx->p);
	return 0;
}

int fa_rtl_prng_refill(fa_rtl_transport *t, fa_rtl_prng_mirror *m,
	fa_rtl_sampling_stats *st, fa_prng *p)
{
	uint64_t ctr = get_ctr(p);
	uint32_t w[128];       /* p is written only once the device is done */

	/* the device generates blocks ctr .. ctr + 7 (SZ_LOAD with the
	   counter as it is: the load is a refill), then hands them over */
	m->valid = 0;
	if (ctr > UINT64_MAX - 8
		|| fa_rtl_drv_sz_load(t, p->state, ctr, 0, k_load(st)) != 0
		|| fa_rtl_drv_sz_buf(t, (uint8_t *)w, k_load(st)) != 0)
	{
		return -1;
	}
	memcpy(p->buf, w, sizeof p->buf);
	set_ctr(p, ctr + 8);
	p->ptr = 0;
	mirror_set(m, p);
	return 0;
}
