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
static void cbd_from_bytes(int16_t *a, const uint8_t *buf, unsigned eta);

void
fa_mlkem_sample_cbd(int16_t *a, const uint8_t sigma[32], uint8_t nonce,
	unsigned eta)
{
	uint8_t buf[64 * 3];

	fa_shake256_2(buf, 64 * eta, sigma, 32, &nonce, 1);
	cbd_from_bytes(a, buf, eta);
	memset(buf, 0, sizeof buf);
}

/* ByteEncode_12: two values per three bytes, little-endian bit order. */
void
fa_mlkem_encode12(uint8_t *out, const int16_t *a)
{
	unsigned i;

	for (i = 0; i < MLKEM_N / 2; i ++) {
		unsigned x = fa_mlkem_canon(fa_mlkem_barrett(a[2 * i]));
		unsigned y = fa_mlkem_canon(fa_mlkem_barrett(a[2 * i + 1]));

		out[3 * i] = (uint8_t)x;
		out[3 * i + 1] = (uint8_t)((x >> 8) | (y << 4));
		out[3 * i + 2] = (uint8_t)(y >> 4);
	}
}

void
fa_mlkem_decode12(int16_t *a, const uint8_t *in)
{
	unsigned i;

	for (i = 0; i < MLKEM_N / 2; i ++) {
		a[2 * i] = (int16_t)(in[3 * i] | ((in[3 * i + 1] & 0x0F) << 8));
		a[2 * i + 1] = (int16_t)((in[3 * i + 1] >> 4)
			| (in[3 * i + 2] << 4));
	}
}

int
fa_mlkem_check12(const uint8_t *in)
{
	int16_t a[MLKEM_N];
	uint32_t bad = 0;
	unsigned i;

	fa_mlkem_decode12(a, in);
	for (i = 0; i < MLKEM_N; i ++) {
		/* bit 31 set iff q - 1 - a < 0, i.e. a >= q */
		bad |= (uint32_t)(MLKEM_Q - 1 - a[i]);
	}
	return (int)(1 - (bad >> 31));
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

/* The mlkem_compress slot, portable. */
void
fa_mlkem_compress_portable(uint16_t *c, const int16_t *a, unsigned d)
{
	unsigned i;

	for (i = 0; i < MLKEM_N; i ++) {
		c[i] = (uint16_t)fa_mlkem_compress(
			fa_mlkem_canon(fa_mlkem_barrett(a[i])), d);
	}
}

/* Compress_d (mlkem_compress slot) then ByteEncode_d: values packed d
   bits each, least significant bit first. */
void
fa_mlkem_compress_encode(uint8_t *out, const int16_t *a, unsigned d,
	const struct fa_kernels *kt)
{
	uint16_t c[MLKEM_N];
	uint32_t acc = 0;
	unsigned bits = 0, i, o = 0;

	fa_k_mlkem_compress(kt, c, a, d);
	for (i = 0; i < MLKEM_N; i ++) {
		acc |= (uint32_t)c[i] << bits;
		bits += d;
		while (bits >= 8) {
			out[o ++] = (uint8_t)acc;
			acc >>= 8;
			bits -= 8;
		}
	}
}

/* ByteDecode_d then Decompress_d(y) = round(q y / 2^d)
   = floor((q y + 2^(d-1)) / 2^d). */
void
fa_mlkem_decode_decompress(int16_t *a, const uint8_t *in, unsigned d)
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
		a[i] = (int16_t)((y * MLKEM_Q + ((uint32_t)1 << (d - 1))) >> d);
	}
}

/* ------------------------------------------------------------------ */
/* Four-way sampling on the four-way permutation. The sponge states are
   set up lane by lane: a message of 32 + b bytes (b <= 2) fits the first
   block, so absorbing is writing the lanes, the padding byte (0x1F, the
   SHAKE domain bits and the first pad bit) after the message and 0x80 in
   the block's last byte. */

static inline uint64_t
load64_le(const uint8_t *b)
{
	return (uint64_t)b[0] | ((uint64_t)b[1] << 8)
		| ((uint64_t)b[2] << 16) | ((uint64_t)b[3] << 24)
		| ((uint64_t)b[4] << 32) | ((uint64_t)b[5] << 40)
		| ((uint64_t)b[6] << 48) | ((uint64_t)b[7] << 56);
}

/* st (25 lanes) = the absorbed one-block message seed32 || tail[0..tl),
   rate `rate` bytes. */
static void
x4_absorb(uint64_t *st, const uint8_t seed32[32], const uint8_t *tail,
	unsigned tl, unsigned rate)
{
	unsigned i;
	uint64_t w = 0;

	memset(st, 0, 25 * sizeof *st);
	for (i = 0; i < 4; i ++) {
		st[i] = load64_le(seed32 + 8 * i);
	}
	for (i = 0; i < tl; i ++) {
		w |= (uint64_t)tail[i] << (8 * i);
	}
	w |= (uint64_t)0x1F << (8 * tl);
	st[4] = w;
	st[(rate - 1) >> 3] ^= (uint64_t)0x80 << 56;
}

static inline void
lanes_to_bytes(uint8_t *out, const uint64_t *st, unsigned nbytes)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the lanes' memory image is the byte stream */
	memcpy(out, st, nbytes);
#else
	unsigned i;

	for (i = 0; i < nbytes; i ++) {
		out[i] = (uint8_t)(st[i >> 3] >> ((i & 7) << 3));
	}
#endif
}

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

void
fa_mlkem_sample_ntt_x4(int16_t *const out[4], const uint8_t rho[32],
	const uint8_t ji[4][2], unsigned n, const struct fa_kernels *kt)
{
	uint64_t st[100];
	int16_t acc[4][MLKEM_N + 16];   /* a group may overshoot by 15 */
	unsigned cnt[4] = { 0, 0, 0, 0 }, t, left;

	for (t = 0; t < 4; t ++) {
		x4_absorb(st + 25 * t, rho, ji[t < n ? t : 0], 2,
			FA_SHAKE128_RATE);
		if (t >= n) {
			cnt[t] = MLKEM_N;   /* padding lane: nothing to sample */
		}
	}
	left = n;
	while (left > 0) {
		fa_k_keccak_x4(kt, st);
		for (t = 0; t < 4; t ++) {
			uint8_t buf[FA_SHAKE128_RATE + 8];

			if (cnt[t] >= MLKEM_N) {
				continue;
			}
			lanes_to_bytes(buf, st + 25 * t, FA_SHAKE128_RATE);
			memset(buf + FA_SHAKE128_RATE, 0, 8);
			/* values past the 256th are dropped below: the first 256
			   are those of Algorithm 7 */
			fa_k_mlkem_rej_uniform(kt, acc[t], &cnt[t], buf);
			left -= cnt[t] >= MLKEM_N;
		}
	}
	for (t = 0; t < n; t ++) {
		memcpy(out[t], acc[t], MLKEM_N * sizeof(int16_t));
	}
}

/* CBD_eta from 64 eta PRF bytes (Algorithm 8; see fa_mlkem_sample_cbd). */
static void
cbd_from_bytes(int16_t *a, const uint8_t *buf, unsigned eta)
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

void
fa_mlkem_sample_cbd_x4(int16_t *const out[4], const uint8_t sigma[32],
	const uint8_t nonce[4], const unsigned eta[4], unsigned n,
	const struct fa_kernels *kt)
{
	uint64_t st[100];
	uint8_t buf[4][64 * 3];
	unsigned t, need = 0;

	for (t = 0; t < 4; t ++) {
		x4_absorb(st + 25 * t, sigma, &nonce[t < n ? t : 0], 1,
			FA_SHAKE256_RATE);
		if (t < n && eta[t] == 3) {
			need = 1;
		}
	}
	fa_k_keccak_x4(kt, st);
	for (t = 0; t < 4; t ++) {
		lanes_to_bytes(buf[t], st + 25 * t, FA_SHAKE256_RATE);
	}
	if (need) {   /* eta = 3: 192 bytes, a second block (public choice) */
		fa_k_keccak_x4(kt, st);
		for (t = 0; t < 4; t ++) {
			lanes_to_bytes(buf[t] + FA_SHAKE256_RATE, st + 25 * t,
				64 * 3 - FA_SHAKE256_RATE);
		}
	}
	for (t = 0; t < n; t ++) {
		cbd_from_bytes(out[t], buf[t], eta[t]);
	}
	memset(buf, 0, sizeof buf);
	memset(st, 0, sizeof st);
}
