/*
 * mlkem_poly.c -- sampling and byte encodings of ML-KEM polynomials
 * (FIPS 203, Algorithms 5 to 8 and the Compress/Decompress maps of 4.2.1).
 *
 * Constant time except fa_mlkem_sample_ntt (public seed). Compress uses
 * a multiplication by a fixed reciprocal, never a division.
 */

#include "mlkem/mlkem_inner.h"

/*
 * Algorithm 7 (SampleNTT): SHAKE128(rho || j || i) read three bytes at a
 * time, b0, b1, b2 giving d1 = b0 + 256 (b1 mod 16) and
 * d2 = floor(b1 / 16) + 16 b2, each kept when < q, until 256 values.
 * 168 bytes (one SHAKE128 block) hold 56 triples exactly.
 */
void
fa_mlkem_sample_ntt(int16_t *a, const uint8_t rho[32], uint8_t j,
	uint8_t i)
{
	fa_keccak_sponge s;
	uint8_t seed[34], buf[FA_SHAKE128_RATE];
	unsigned n = 0;

	memcpy(seed, rho, 32);
	seed[32] = j;
	seed[33] = i;
	fa_sponge_init(&s, FA_SHAKE128_RATE);
	fa_sponge_absorb(&s, seed, sizeof seed);
	fa_sponge_finish(&s, 0x1F);
	while (n < MLKEM_N) {
		unsigned u;

		fa_sponge_squeeze(&s, buf, sizeof buf);
		for (u = 0; u < sizeof buf && n < MLKEM_N; u += 3) {
			unsigned d1 = buf[u] | ((unsigned)(buf[u + 1] & 0x0F) << 8);
			unsigned d2 = (buf[u + 1] >> 4) | ((unsigned)buf[u + 2] << 4);

			if (d1 < MLKEM_Q) {
				a[n ++] = (int16_t)d1;
			}
			if (d2 < MLKEM_Q && n < MLKEM_N) {
				a[n ++] = (int16_t)d2;
			}
		}
	}
}

/*
 * PRF_eta(sigma, nonce) = SHAKE256(sigma || nonce, 64 eta), then
 * Algorithm 8 (SamplePolyCBD): coefficient i is
 *   sum_{l<eta} bit[2 i eta + l] - sum_{l<eta} bit[2 i eta + eta + l].
 * eta = 2: a 32-bit word holds 8 coefficients (4 bits each), the pair
 * sums computed for all bit pairs at once; eta = 3: a 24-bit word holds
 * 4 coefficients (6 bits each), triple sums at once. Result in
 * [-eta, eta].
 */
void
fa_mlkem_sample_cbd(int16_t *a, const uint8_t sigma[32], uint8_t nonce,
	unsigned eta)
{
	uint8_t buf[64 * 3];

	fa_shake256_2(buf, 64 * eta, sigma, 32, &nonce, 1);
	fa_mlkem_cbd_portable(a, buf, eta);
	memset(buf, 0, sizeof buf);
}

/* 1 if every 12-bit value of the 384-byte string is < q (mlkem_decode
   slot, d = 12), else 0. */
int
fa_mlkem_check12(const uint8_t *in, const struct fa_kernels *kt)
{
	int16_t a[MLKEM_N];
	uint16_t bad = 0;
	unsigned i;

	fa_k_mlkem_decode(kt, a, in, 12);
	for (i = 0; i < MLKEM_N; i ++) {
		/* a in [0, 4095], so q - 1 - a in [-766, 3328] fits 16 bits:
		   bit 15 set iff a >= q (16-bit lanes when vectorised) */
		bad |= (uint16_t)(MLKEM_Q - 1 - a[i]);
	}
	return (int)(1 - (bad >> 15));
}

/*
 * Compress_d(x) = round(2^d x / q) mod 2^d = floor((2^d x + (q-1)/2) / q)
 * mod 2^d (q is odd: no ties). The quotient of t < 2^23 by q is
 * floor(t * M / 2^36) with M = ceil(2^36 / q) = 20642679: M q - 2^36 < q,
 * so the error term t (M q - 2^36) / (q 2^36) < 2^-13 stays below 1/q
 * and never crosses an integer (tests/test_mlkem.c checks every x, d).
 */
uint32_t
fa_mlkem_compress(uint32_t x, unsigned d)
{
	uint64_t t = ((uint64_t)x << d) + (MLKEM_Q - 1) / 2;

	return (uint32_t)((t * 20642679u) >> 36) & (((uint32_t)1 << d) - 1);
}

/*
 * The mlkem_encode slot, portable: c[i] = a[i] mod q in [0, q-1]
 * (Barrett, then + q if negative), Compress_d for d < 12, then
 * ByteEncode_d: values packed d bits each, least significant bit first.
 */
void
fa_mlkem_encode_portable(uint8_t *out, const int16_t *a, unsigned d)
{
	uint32_t acc = 0;
	unsigned bits = 0, i, o = 0;

	for (i = 0; i < MLKEM_N; i ++) {
		uint32_t c = fa_mlkem_canon(fa_mlkem_barrett(a[i]));

		if (d < 12) {
			c = fa_mlkem_compress(c, d);
		}
		acc |= c << bits;
		bits += d;
		while (bits >= 8) {
			out[o ++] = (uint8_t)acc;
			acc >>= 8;
			bits -= 8;
		}
	}
}

/*
 * The mlkem_decode slot, portable: ByteDecode_d, then for d < 12
 * Decompress_d(y) = round(q y / 2^d) = floor((q y + 2^(d-1)) / 2^d).
 */
void
fa_mlkem_decode_portable(int16_t *a, const uint8_t *in, unsigned d)
{
	uint32_t acc = 0, mask = ((uint32_t)1 << d) - 1;
	unsigned bits = 0, i, o = 0;

	for (i = 0; i < MLKEM_N; i ++) {
		uint32_t y;

		while (bits < d) {
			acc |= (uint32_t)in[o ++] << bits;
			bits += 8;
		}
		y = acc & mask;
		acc >>= d;
		bits -= d;
		a[i] = (int16_t)(d == 12 ? y
			: (y * MLKEM_Q + ((uint32_t)1 << (d - 1))) >> d);
	}
}

/* ------------------------------------------------------------------ */

/* The mlkem_rej_uniform slot (contract in src/kernels.h), portable:
   groups of 8 triples, each run only while fewer than 256 values are
   kept. */
void
fa_mlkem_rej_uniform_portable(int16_t *a, unsigned *ctr, const uint8_t *buf)
{
	unsigned c = *ctr, g, u;

	for (g = 0; g < FA_SHAKE128_RATE / 24 && c < MLKEM_N; g ++) {
		for (u = 24 * g; u < 24 * g + 24; u += 3) {
			unsigned d1 = buf[u] | ((unsigned)(buf[u + 1] & 0x0F) << 8);
			unsigned d2 = (buf[u + 1] >> 4) | ((unsigned)buf[u + 2] << 4);

			if (d1 < MLKEM_Q) {
				a[c ++] = (int16_t)d1;
			}
			if (d2 < MLKEM_Q) {
				a[c ++] = (int16_t)d2;
			}
		}
	}
	*ctr = c;
}

/* The mlkem_cbd slot, portable: CBD_eta from 64 eta PRF bytes
   (Algorithm 8; see fa_mlkem_sample_cbd). */
void
fa_mlkem_cbd_portable(int16_t *a, const uint8_t *buf, unsigned eta)
{
	unsigned i, l;

	if (eta == 2) {
		for (i = 0; i < MLKEM_N / 8; i ++) {
			uint32_t w = (uint32_t)buf[4 * i]
				| ((uint32_t)buf[4 * i + 1] << 8)
				| ((uint32_t)buf[4 * i + 2] << 16)
				| ((uint32_t)buf[4 * i + 3] << 24);
			uint32_t d = (w & 0x55555555u) + ((w >> 1) & 0x55555555u);

			for (l = 0; l < 8; l ++) {
				a[8 * i + l] = (int16_t)((int)((d >> (4 * l)) & 3)
					- (int)((d >> (4 * l + 2)) & 3));
			}
		}
	} else {
		for (i = 0; i < MLKEM_N / 4; i ++) {
			uint32_t w = (uint32_t)buf[3 * i]
				| ((uint32_t)buf[3 * i + 1] << 8)
				| ((uint32_t)buf[3 * i + 2] << 16);
			uint32_t d = (w & 0x249249u) + ((w >> 1) & 0x249249u)
				+ ((w >> 2) & 0x249249u);

			for (l = 0; l < 4; l ++) {
				a[4 * i + l] = (int16_t)((int)((d >> (6 * l)) & 7)
					- (int)((d >> (6 * l + 3)) & 7));
			}
		}
	}
}
