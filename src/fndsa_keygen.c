/*
 * fndsa_keygen.c -- FN-DSA key generation as fn-dsa 0.4.0 (its ntrugen
 * procedure), deterministic from a 32-byte seed:
 *
 *   stream = SHAKE256(seed) (16-bit little-endian words);
 *   repeat: f from the CDT table (n = 1024: its own table; n <= 512: the
 *     512 table, 512/n samples summed per coefficient, values outside
 *     [-127, 127] redrawn; the last coefficient redrawn until the sum of
 *     all is odd); f must be invertible mod q (else a new f); g likewise
 *     (no invertibility needed); ||(f, g)||^2 < 16823; the Gram-Schmidt
 *     norm of (q adj f, q adj g)/(f adj f + g adj g) below (0.999 * 1.17)^2
 *     q = 72107278641426 / 2^32; the NTRU equation solved with
 *     |F|, |G| <= 127.
 *
 * The Gram-Schmidt bound and the NTRU solver are fn-dsa's, computed
 * the same way (fndsa_ntru.c: fixed point, the same residue counts and
 * reduction schedule), so a candidate is kept exactly when fn-dsa keeps
 * it and the keys are fn-dsa's for every seed.
 *
 * Constant time: the candidate's sampling, checks and solution run
 * without secret-dependent branches or indices; what is declassified is
 * each verdict that discards a candidate (a value redrawn, f not
 * invertible, a norm too large, the solver's rejection), and the
 * parity redraw of f's last coefficient (fn-dsa's procedure).
 */

#include "fndsa_inner.h"
#include "ct_declassify.h"

static void sample_f(fa_fndsa_prng *p, int8_t *f, unsigned logn)
{
	size_t n = MKN(logn), i = 0, tlen;
	const uint16_t *tab;
	unsigned zz, parity = 0, j, t;

	if (logn == 10) {
		tab = fa_fndsa_kgdist_1024;
		tlen = 12;
		zz = 1;
	} else {
		tab = fa_fndsa_kgdist_512;
		tlen = 17;
		zz = 1u << (9 - logn);
	}
	while (i < n) {
		uint32_t aa = 0;
		int32_t ai;

		for (t = 0; t < zz; t ++) {
			uint32_t u = fa_fndsa_prng_u16(p), v = u >> 1, a = 0;

			/* high half of a = #{j : v < tab[j]} */
			for (j = 0; j < tlen; j ++) {
				a -= (v - tab[j]) & 0xFFFF0000u;
			}
			/* the sign bit (low bit of u) */
			a -= (a << 1) & -(u & 1);
			aa += a;
		}
		ai = (int32_t)aa >> 16;
		/* declassified: a redraw (below degree 128 only) discards the
		   value; the parity redraw of the last coefficient is the
		   specification's (fn-dsa's) and depends on fresh draws */
		if (fa_declassify_int((ai < -127) | (ai > 127))) {
			continue;
		}
		if (i == n - 1) {
			if (fa_declassify_u32(((parity ^ (uint32_t)ai) & 1) != 1)) {
				continue;
			}
		} else {
			parity ^= (uint32_t)ai;
		}
		f[i ++] = (int8_t)ai;
	}
}

/* 1 if f is invertible mod (x^n + 1, q): no zero in its NTT. */
static int invertible(const int8_t *f, unsigned logn, uint16_t *t,
	const struct fa_kernels *k)
{
	size_t n = MKN(logn), u;
	uint32_t z = 0;

	for (u = 0; u < n; u ++) {
		int32_t v = f[u];

		t[u] = (uint16_t)(v + (int32_t)(FA_Q & -(uint32_t)(v < 0)));
	}
	fa_k_mq_ntt(k, t, logn);
	for (u = 0; u < n; u ++) {
		z |= (uint32_t)(t[u] == 0);
	}
	return z == 0;
}

void fa_fndsa_keygen_inner(const uint8_t seed[32], int8_t *f, int8_t *g,
	int8_t *F, int8_t *G, uint16_t *h, unsigned logn, uint8_t *tmp,
	const struct fa_kernels *k)
{
	fa_fndsa_prng p;
	size_t n = MKN(logn), u;
	uint8_t *t = fa_align8(tmp);
	uint64_t *ft = (uint64_t *)(void *)(t + 20 * n);

	fa_fndsa_prng_init(&p, seed, 32, k);
	for (;;) {
		int32_t sn = 0;

		sample_f(&p, f, logn);
		/* declassified: rejections discard the candidate */
		if (!fa_declassify_int(invertible(f, logn, (uint16_t *)(void *)t,
			k)))
		{
			continue;
		}
		sample_f(&p, g, logn);
		for (u = 0; u < n; u ++) {
			sn += (int32_t)f[u] * f[u] + (int32_t)g[u] * g[u];
		}
		if (fa_declassify_int(sn >= 16823)) {
			continue;
		}
		if (!fa_declassify_int(fa_fndsa_ortho_norm_ok(f, g, logn, ft)))
		{
			continue;
		}
		if (!fa_declassify_int(fa_fndsa_ntru_solve(F, G, f, g, logn,
			(uint32_t *)(void *)t, ft)))
		{
			continue;
		}
		/* f is invertible: h = g/f exists */
		if (fa_compute_public(h, f, g, logn, t, k)) {
			fa_to_ntt(h, logn, k);
			return;
		}
	}
}
