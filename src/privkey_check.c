/*
 * privkey_check.c -- exact check of the NTRU equation fG - gF = q
 * (mod x^n + 1) for a decoded private key, and the checksum of the
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
 * Cost: four forward NTTs of size n on 16-bit residues (no inverse),
 * with twiddle tables built once per call.
 * Constant time: no branch or memory index depends on the coefficients;
 * the verdict is a mask folded over all slots.
 */

#include "inner.h"

#define KP      18433u   /* 9 * 2^11 + 1, prime */
#define KP_QNR  5u       /* a quadratic non-residue mod KP (5^((KP-1)/2) = -1) */
#define KP_R    10237u   /* 2^16 mod KP (Montgomery R) */
#define KP_R2   4564u    /* 2^32 mod KP */

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

/* Montgomery form of x^e (x in Montgomery form; e public). */
static uint32_t kp_pow(uint32_t xr, uint32_t e, uint32_t p0i)
{
	uint32_t r = KP_R;

	while (e != 0) {
		if (e & 1u) {
			r = kp_mont(r, xr, p0i);
		}
		xr = kp_mont(xr, xr, p0i);
		e >>= 1;
	}
	return r;
}

/*
 * Forward negacyclic NTT mod p of a small polynomial (int8 coefficients)
 * into a[] (n residues, plain form, slots in bit-reversed order). Twist
 * a_i by psi^i (x^n + 1 -> y^n - 1 with y = x/psi), then a cyclic
 * decimation-in-frequency NTT with omega = psi^2. Tables (Montgomery
 * form): tpsi[i] = psi^i (n entries), tom[j] = omega^j (n/2 entries).
 */
static void kp_ntt_small(uint16_t *a, const int8_t *s, unsigned logn,
	const uint16_t *tpsi, const uint16_t *tom, uint32_t p0i)
{
	size_t n = MKN(logn), len, j, st, step;

	for (j = 0; j < n; j ++) {
		/* s in [-127, 127] -> [0, p-1], then times psi^j */
		uint32_t v = (uint32_t)((int32_t)s[j] + (int32_t)KP);

		a[j] = (uint16_t)kp_mont(kp_csub(v), tpsi[j], p0i);
	}
	for (len = n >> 1, step = 1; len >= 1; len >>= 1, step <<= 1) {
		for (st = 0; st < n; st += len << 1) {
			for (j = 0; j < len; j ++) {
				uint32_t u = a[st + j], v = a[st + j + len];

				a[st + j] = (uint16_t)kp_add(u, v);
				a[st + j + len] = (uint16_t)kp_mont(
					kp_sub(u, v), tom[j * step], p0i);
			}
		}
	}
}

int fa_ntru_equation_ok(const int8_t *f, const int8_t *g, const int8_t *F,
	const int8_t *G, unsigned logn, uint8_t *tmp)
{
	size_t n = MKN(logn), u;
	uint16_t *a = (uint16_t *)(void *)tmp, *b = a + n, *c = b + n;
	uint16_t *tpsi = c + n, *tom = tpsi + n;
	uint32_t p0i = kp_p0i();
	uint32_t psi_r, om_r, target, bad;

	/* psi = QNR^((p-1)/2n): psi^n = QNR^((p-1)/2) = -1, so psi has order
	   exactly 2n; omega = psi^2 has order n. */
	psi_r = kp_pow(kp_mont(KP_QNR, KP_R2, p0i),
		(KP - 1u) >> (logn + 1), p0i);
	om_r = kp_mont(psi_r, psi_r, p0i);
	tpsi[0] = (uint16_t)KP_R;
	for (u = 1; u < n; u ++) {
		tpsi[u] = (uint16_t)kp_mont(tpsi[u - 1], psi_r, p0i);
	}
	tom[0] = (uint16_t)KP_R;
	for (u = 1; u < (n >> 1); u ++) {
		tom[u] = (uint16_t)kp_mont(tom[u - 1], om_r, p0i);
	}

	/* a = NTT(f) * NTT(G) / R, then c = NTT(g) * NTT(F) / R */
	kp_ntt_small(a, f, logn, tpsi, tom, p0i);
	kp_ntt_small(b, G, logn, tpsi, tom, p0i);
	for (u = 0; u < n; u ++) {
		a[u] = (uint16_t)kp_mont(a[u], b[u], p0i);
	}
	kp_ntt_small(b, g, logn, tpsi, tom, p0i);
	kp_ntt_small(c, F, logn, tpsi, tom, p0i);
	/* both products carry the same 1/R: compare with q/R */
	target = kp_mont(FA_Q, 1, p0i);
	bad = 0;
	for (u = 0; u < n; u ++) {
		uint32_t d = kp_sub(a[u], kp_mont(b[u], c[u], p0i));

		bad |= d ^ target;
	}
	return (int)(1u - ((bad | (0u - bad)) >> 31));
}

/*
 * Expanded-key checksum: 32 bits folded from four 64-bit multiply-xor
 * lanes over the words of the key body (not a MAC: it detects a buffer
 * that is not, or no longer, the output of fa_expand_privkey). Constant
 * time (the same operations for every value).
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
