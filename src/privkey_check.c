/*
 * privkey_check.c -- exact check of the NTRU equation fG - gF = q
 * (mod x^n + 1) for a decoded private key, and the checksums of the
 * expanded key.
 *
 * Why the check is needed: the private key stores f, g, F; G is
 * recomputed as gF/f mod q (fa_complete_private). That recomputation makes
 * fG - gF = 0 (mod q) true for ANY f, g, F with f invertible mod q, so a
 * test modulo q proves nothing: a key whose (f, g, F, G) is not a
 * trapdoor basis (fG - gF = k*q with k != 1) decodes, gives a public key,
 * and makes signing re-sample forever. The integer equation is checked
 * here exactly.
 *
 * Bound (every degree): the decoder limits |f|, |g| <= 2^(b-1) - 1 with
 * b = FA_FG_BITS(logn) and |F|, |G| <= 127, so every coefficient of fG - gF
 * is at most 2 * n * (2^(b-1) - 1) * 127 in absolute value:
 *   logn <= 5 (b = 8):  2 *   32 * 127 * 127 = 1,032,256
 *   logn 6..7 (b = 7):  2 *  128 *  63 * 127 = 2,048,256
 *   logn 8..9 (b = 6):  2 *  512 *  31 * 127 = 4,031,488
 *   logn 10   (b = 5):  2 * 1024 *  15 * 127 = 3,901,440
 * so D = fG - gF - q has |D_i| <= 4,031,488 + 12,289 < 2^22.
 * D = 0 (mod q) holds by construction of G. If also D = 0 (mod p) for the
 * prime p = 18433, then D = 0 (mod q*p) with q*p = 226,524,737 > 2 * 2^22,
 * hence D = 0 exactly. The test mod p is done in the NTT domain: x^n + 1
 * splits into n distinct linear factors mod p (2n divides p - 1 = 9 *
 * 2^11), the NTT is a ring isomorphism, so D = 0 (mod p) iff
 * f^G^ - g^F^ = q in every NTT slot (the NTT of the constant q is q in
 * every slot).
 *
 * Cost: four forward NTTs of size n on 16-bit residues (no inverse, no
 * separate twist: (n/2) logn Montgomery products each) and 2n pointwise
 * products, with a generated twiddle table (src/privkey_check_tables.c).
 * Scratch: 3n uint16_t.
 * Constant time: no branch or memory index depends on the coefficients;
 * the verdict is a mask folded over all slots.
 */

#include "inner.h"

#define KP      18433u   /* 9 * 2^11 + 1, prime */

/* x - p if x >= p; x in [0, 2p - 1]. */
static inline uint32_t kp_csub(uint32_t x)
{
	uint32_t t = x - KP;

	return t + (KP & -(t >> 31));
}

static inline uint32_t kp_add(uint32_t a, uint32_t b)
{
	return kp_csub(a + b);
}

static inline uint32_t kp_sub(uint32_t a, uint32_t b)
{
	uint32_t t = a - b;

	return t + (KP & -(t >> 31));
}

/* -1/p mod 2^16 (Newton iteration; each step doubles the correct bits). */
static inline uint32_t kp_p0i(void)
{
	uint32_t y = KP;   /* correct to 3 bits: p*p = 1 mod 8 */

	y *= 2u - KP * y;
	y *= 2u - KP * y;
	y *= 2u - KP * y;
	return (0u - y) & 0xFFFFu;
}

/*
 * a*b/2^16 mod p for a, b in [0, p-1]: t = a*b < 2^29, t + m*p < 2^29 +
 * 2^31 (no 32-bit overflow), and the quotient is below 2p.
 */
static inline uint32_t kp_mont(uint32_t a, uint32_t b, uint32_t p0i)
{
	uint32_t t = a * b;
	uint32_t m = (t * p0i) & 0xFFFFu;

	return kp_csub((t + m * KP) >> 16);
}

/* Twiddles psi^brv_10(k) * 2^16 mod p, psi of order 2048
   (scripts/gen_privkey_check_tables.py -> src/privkey_check_tables.c). */
extern const uint16_t fa_kp_psi_mont[1024];

/*
 * Forward negacyclic NTT mod p of a small polynomial (int8 coefficients
 * in [-127, 127]) into a[] (n residues in [0, p-1], plain form). Slot j
 * holds s(psi_n^(2 brv_logn(j) + 1)) mod p, psi_n = psi^(1024/n) of order
 * 2n: the iterative Cooley-Tukey transform whose twiddle at butterfly
 * index k (1 <= k < n) is psi_n^brv_logn(k) = psi^brv_10(k), so the
 * twist by powers of psi_n is part of the butterflies and one table
 * serves every degree. (n/2) logn Montgomery products.
 */
static void kp_ntt_small(uint16_t *a, const int8_t *s, unsigned logn,
	uint32_t p0i)
{
	size_t n = MKN(logn), t, m, i, j;

	for (j = 0; j < n; j ++) {
		/* s in [-127, 127] -> [0, p-1] */
		a[j] = (uint16_t)kp_csub((uint32_t)((int32_t)s[j]
			+ (int32_t)KP));
	}
	for (m = 1, t = n; m < n; m <<= 1) {
		size_t ht = t >> 1, j1;

		for (i = 0, j1 = 0; i < m; i ++, j1 += t) {
			uint32_t w = fa_kp_psi_mont[m + i];

			for (j = j1; j < j1 + ht; j ++) {
				uint32_t u = a[j];
				uint32_t v = kp_mont(a[j + ht], w, p0i);

				a[j] = (uint16_t)kp_add(u, v);
				a[j + ht] = (uint16_t)kp_sub(u, v);
			}
		}
		t = ht;
	}
}

#if defined(FA_CT_TEST_LEAK) && FA_CT_TEST_LEAK
/* Test-only (never set in a library build): one deliberate branch on a
   secret coefficient, which the constant-time test must report (ctest
   ct_valgrind_detects_library_branch; README "Constant-time status"). */
static volatile int fa_ct_test_leak_sink;
#endif

int fa_ntru_equation_ok(const int8_t *f, const int8_t *g, const int8_t *F,
	const int8_t *G, unsigned logn, uint8_t *tmp)
{
	size_t n = MKN(logn), u;
	uint16_t *a = (uint16_t *)(void *)tmp, *b = a + n;
	uint32_t p0i = kp_p0i();
	uint32_t target, bad;

#if defined(FA_CT_TEST_LEAK) && FA_CT_TEST_LEAK
	if (f[0] < 0) {
		fa_ct_test_leak_sink ++;
	}
#endif

	/* a = NTT(f) * NTT(G) / R */
	kp_ntt_small(a, f, logn, p0i);
	kp_ntt_small(b, G, logn, p0i);
	for (u = 0; u < n; u ++) {
		a[u] = (uint16_t)kp_mont(a[u], b[u], p0i);
	}
	/* then NTT(g) into b, NTT(F) into b + n: d = a - NTT(g) NTT(F) / R */
	kp_ntt_small(b, g, logn, p0i);
	kp_ntt_small(b + n, F, logn, p0i);
	/* both products carry the same 1/R: compare with q/R */
	target = kp_mont(FA_Q, 1, p0i);
	bad = 0;
	for (u = 0; u < n; u ++) {
		uint32_t d = kp_sub(a[u], kp_mont(b[u], b[u + n], p0i));

		bad |= d ^ target;
	}
	return (int)(1u - ((bad | (0u - bad)) >> 31));
}

/*
 * Expanded-key checksums (not a MAC: they detect a buffer that is not, or
 * no longer, the output of fa_expand_privkey). Two functions, one per
 * version byte of the expanded key's header (api.c): each is cheap on one
 * kind of core, and both are checked everywhere.
 *
 * Version 1 (64-bit hosts): four lanes of 64-bit words, each
 * h = (h ^ w) * k64, h ^= h >> 29, folded to 32 bits. On RV32IMC a 64-bit
 * product is three multiplies and the shift four instructions: ~18 cycles
 * a 64-bit word on Ibex.
 *
 * Version 2 (32-bit cores): eight lanes of 32-bit words, word j of each
 * group of eight into lane j (the low and high halves of a binary64 go
 * to different lanes), each h = (h ^ w) * k32, h ^= h >> 16: a load and
 * four single-cycle instructions a word on Ibex. Each step is a bijection
 * of h for a given w and of w for a given h, and the shift feeds the high
 * half back into the low half before the next word, so every change of a
 * single word changes its lane's state, and two changes can only cancel
 * through the mixing (unlike a sum modulo 2^32, which misses two flipped
 * sign bits at an even distance). The lanes are folded by the same step,
 * over the word count first.
 *
 * Constant time (the same operations for every value).
 */
uint32_t fa_expanded_key_checksum(const uint64_t *w, size_t nw,
	unsigned logn)
{
	const uint64_t k = 0x9E3779B97F4A7C15u;
	uint64_t h0 = 0x243F6A8885A308D3u ^ logn, h1 = 0x13198A2E03707344u;
	uint64_t h2 = 0xA4093822299F31D0u, h3 = 0x082EFA98EC4E6C89u;
	size_t u;

	for (u = 0; u + 4 <= nw; u += 4) {
		h0 = (h0 ^ w[u + 0]) * k;
		h1 = (h1 ^ w[u + 1]) * k;
		h2 = (h2 ^ w[u + 2]) * k;
		h3 = (h3 ^ w[u + 3]) * k;
		h0 ^= h0 >> 29;
		h1 ^= h1 >> 29;
		h2 ^= h2 >> 29;
		h3 ^= h3 >> 29;
	}
	for (; u < nw; u ++) {
		h0 = (h0 ^ w[u]) * k;
		h0 ^= h0 >> 29;
	}
	h0 ^= (h1 * 3u) ^ (h2 * 5u) ^ (h3 * 7u) ^ (uint64_t)nw;
	h0 *= k;
	h0 ^= h0 >> 32;
	return (uint32_t)h0;
}

/* One step of a version-2 lane: h ^ w, times the odd k32 (a bijection
   mod 2^32), then the high half xored into the low half. */
static inline uint32_t ek_mix32(uint32_t h, uint32_t w)
{
	h = (h ^ w) * 0x9E3779B1u;
	return h ^ (h >> 16);
}

uint32_t fa_expanded_key_checksum32(const uint32_t *w, size_t nw,
	unsigned logn)
{
	/* lane seeds: the first 32-bit words of the fraction of pi */
	uint32_t h0 = 0x243F6A88u ^ logn, h1 = 0x85A308D3u;
	uint32_t h2 = 0x13198A2Eu, h3 = 0x03707344u;
	uint32_t h4 = 0xA4093822u, h5 = 0x299F31D0u;
	uint32_t h6 = 0x082EFA98u, h7 = 0xEC4E6C89u;
	size_t u;

	for (u = 0; u + 8 <= nw; u += 8) {
		h0 = ek_mix32(h0, w[u + 0]);
		h1 = ek_mix32(h1, w[u + 1]);
		h2 = ek_mix32(h2, w[u + 2]);
		h3 = ek_mix32(h3, w[u + 3]);
		h4 = ek_mix32(h4, w[u + 4]);
		h5 = ek_mix32(h5, w[u + 5]);
		h6 = ek_mix32(h6, w[u + 6]);
		h7 = ek_mix32(h7, w[u + 7]);
	}
	for (; u < nw; u ++) {
		h0 = ek_mix32(h0, w[u]);
	}
	{
		uint32_t h[8];

		h[0] = h0; h[1] = h1; h[2] = h2; h[3] = h3;
		h[4] = h4; h[5] = h5; h[6] = h6; h[7] = h7;
		return fa_ek_checksum32_fold(h, nw);
	}
}

uint32_t fa_ek_checksum32_fold(const uint32_t h[8], size_t nw)
{
	uint32_t r = ek_mix32(0x452821E6u, (uint32_t)nw);
	unsigned u;

	for (u = 0; u < 8; u ++) {
		r = ek_mix32(r, h[u]);
	}
	return r;
}

void fa_ek_checksum32_portable(uint32_t *c, const uint32_t *w, size_t nw,
	unsigned logn)
{
	*c = fa_expanded_key_checksum32(w, nw, logn);
}

int fa_fg_norm_ok(const int8_t *f, const int8_t *g, unsigned logn)
{
	size_t u, n = MKN(logn);
	uint32_t s = 0;

	/* at most 2 * 1024 * 127^2 < 2^25: no overflow */
	for (u = 0; u < n; u ++) {
		int32_t a = f[u], b = g[u];

		s += (uint32_t)(a * a) + (uint32_t)(b * b);
	}
	return (int)((s - 16823u) >> 31);
}
