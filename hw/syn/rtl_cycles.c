/*
 * rtl_cycles.c -- cycle counts of every kernel of the falcon-accel RTL,
 * measured on the Verilated model through the "rtl" backend (the same
 * register-level driver and AXI transactions as the library uses).
 *
 * For logn = 9 and 10 and each of the 13 device kernels it runs one call
 * on random data, checks the result against the portable kernel bit for
 * bit, and prints one JSON line:
 *   {"P":4,"logn":9,"kernel":"fft","cycles":354,"cycles_with_transfer":2426,
 *    "match":true}
 * cycles: the CYCLES register (START to completion, compute only);
 * cycles_with_transfer: simulated clock cycles of the whole driver call
 * (LOGN/CONST writes, operands over the 32-bit AXI-Stream, START, result
 * back over the stream). P is read from the CONFIG register.
 *
 * Built and run by hw/syn/rtl_cycles.sh (one build per P). Exit status 1
 * when a result differs from the portable kernel or a call failed.
 */
#include <stdio.h>
#include <string.h>

#include "bench_inner.h"
#include "fa_rtl.h"
#include "fa_rtl_regs.h"

static uint64_t rng_state = 0x243F6A8885A308D3u;

/* xorshift64: a fixed, reproducible stream (not cryptographic) */
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* values in about [-2^20, 2^20], the range of Falcon's FFT data */
static void rand_fpr(fpr *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i ++) {
		int64_t v = (int64_t)(rnd() >> 20) - ((int64_t)1 << 43);

		a[i] = fpr_scaled(v, -23);
	}
}

/* values in [0, q-1] */
static void rand_mq(uint16_t *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i ++) {
		a[i] = (uint16_t)(rnd() % FA_Q);
	}
}

static unsigned lanes;
static int failures;

static void report(unsigned kid, unsigned logn, int match)
{
	fa_rtl_kstat st[FA_RTL_K_COUNT];

	fa_rtl_stats(st);
	if (st[kid].calls != 1 || st[kid].last_logn != logn) {
		/* the call did not reach the device (fell back) */
		match = 0;
	}
	printf("{\"P\":%u,\"logn\":%u,\"kernel\":\"%s\",\"cycles\":%lu,"
		"\"cycles_with_transfer\":%lu,\"match\":%s}\n",
		lanes, logn, fa_rtl_kernel_names[kid],
		(unsigned long)st[kid].last_cycles,
		(unsigned long)st[kid].last_cycles_with_transfer,
		match ? "true" : "false");
	if (!match) {
		failures ++;
	}
	fa_rtl_stats_reset();
}

static int same_fpr(const fpr *a, const fpr *b, size_t n)
{
	return memcmp(a, b, n * sizeof(fpr)) == 0;
}

static void fpr_kernels(const struct fa_kernels *r, unsigned logn)
{
	static fpr a[1024], b[1024], x[1024], y[1024];
	size_t n = MKN(logn);
	fpr c;

	rand_fpr(a, n);
	rand_fpr(b, n);
	c = b[1];
#define ONE(kid, call_r, call_p) do { \
		memcpy(x, a, n * sizeof(fpr)); \
		memcpy(y, a, n * sizeof(fpr)); \
		call_r; \
		call_p; \
		report(kid, logn, same_fpr(x, y, n)); \
	} while (0)
	ONE(FA_RTL_K_FFT, r->fft(x, logn), fa_fft_portable(y, logn));
	ONE(FA_RTL_K_IFFT, r->ifft(x, logn), fa_ifft_portable(y, logn));
	ONE(FA_RTL_K_ADD, r->poly_add(x, b, logn),
		fa_poly_add_portable(y, b, logn));
	ONE(FA_RTL_K_SUB, r->poly_sub(x, b, logn),
		fa_poly_sub_portable(y, b, logn));
	ONE(FA_RTL_K_NEG, r->poly_neg(x, logn), fa_poly_neg_portable(y, logn));
	ONE(FA_RTL_K_ADJ, r->poly_adj_fft(x, logn),
		fa_poly_adj_fft_portable(y, logn));
	ONE(FA_RTL_K_MUL, r->poly_mul_fft(x, b, logn),
		fa_poly_mul_fft_portable(y, b, logn));
	ONE(FA_RTL_K_MULADJ, r->poly_muladj_fft(x, b, logn),
		fa_poly_muladj_fft_portable(y, b, logn));
	ONE(FA_RTL_K_MULSELFADJ, r->poly_mulselfadj_fft(x, logn),
		fa_poly_mulselfadj_fft_portable(y, logn));
	ONE(FA_RTL_K_MULCONST, r->poly_mulconst(x, c, logn),
		fa_poly_mulconst_portable(y, c, logn));
#undef ONE
}

static void mq_kernels(const struct fa_kernels *r, unsigned logn)
{
	static uint16_t a[1024], b[1024], x[1024], y[1024];
	size_t n = MKN(logn);

	rand_mq(a, n);
	rand_mq(b, n);
	memcpy(x, a, n * 2);
	memcpy(y, a, n * 2);
	r->mq_ntt(x, logn);
	fa_mq_ntt_portable(y, logn);
	report(FA_RTL_K_NTT, logn, memcmp(x, y, n * 2) == 0);
	r->mq_intt(x, logn);
	fa_mq_intt_portable(y, logn);
	report(FA_RTL_K_INTT, logn, memcmp(x, y, n * 2) == 0);
	r->mq_poly_mul_ntt(x, b, logn);
	fa_mq_poly_mul_ntt_portable(y, b, logn);
	report(FA_RTL_K_NTT_MUL, logn, memcmp(x, y, n * 2) == 0);
}

int main(void)
{
	const struct fa_kernels *r = &fa_backend_rtl;
	fa_rtl_transport t;
	uint32_t config = 0;
	unsigned logn;

	if (!r->available() || fa_rtl_sim_open(&t) != 0
		|| t.rd(t.ctx, FA_RTL_REG_CONFIG, &config) != 0)
	{
		fprintf(stderr, "rtl_cycles: the Verilated model is not available\n");
		return 1;
	}
	lanes = (config & FA_RTL_CONFIG_LANES_MASK) >> FA_RTL_CONFIG_LANES_LSB;
	fa_rtl_stats_reset();
	for (logn = 9; logn <= 10; logn ++) {
		fpr_kernels(r, logn);
		mq_kernels(r, logn);
	}
	return failures != 0;
}
