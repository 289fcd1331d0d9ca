/*
 * test_codec.c -- encodings of keys and signatures (src/codec.c).
 *
 * The reference here works on explicit bit lists (one byte per bit), a
 * different construction from the library's shift accumulators:
 * encoders append bits and pack them, decoders walk the bits in order and
 * stop at the first problem, in stream order. Checked:
 *  - round trips for every logn, every format and bit width, random and
 *    extreme values, byte-identical to the reference encoding;
 *  - every malformed class with its exact error code (value out of
 *    range, -2^(bits-1), minus zero, |x| > 2047, non-zero unused bits,
 *    truncation at every length), bad arguments;
 *  - random mutations of valid encodings: same result and error code as
 *    the reference decoder, and canonicity (re-encoding gives the bytes
 *    read);
 *  - the NIST KAT keys and signatures decode and re-encode identically.
 * Inputs are copied to heap buffers of their exact length so that the
 * ASan build catches any read past the end.
 */
#include "inner.h"
#include "test_util.h"

#define Q 12289

static uint64_t rs = 0xC0DEC0DEC0DEull;

/* ------------------------------------------------------------------ */
/* Reference bit lists. */

#define MAXBITS (1024 * 24 + 16)

typedef struct {
	uint8_t b[MAXBITS];
	size_t len;
} bitlist;

static void
bl_push(bitlist *bl, uint32_t v, unsigned nbits)
{
	while (nbits -- > 0) {
		bl->b[bl->len ++] = (uint8_t)((v >> nbits) & 1);
	}
}

static size_t
bl_pack(uint8_t *out, const bitlist *bl)
{
	size_t i, nb = (bl->len + 7) / 8;

	memset(out, 0, nb);
	for (i = 0; i < bl->len; i ++) {
		if (bl->b[i]) {
			out[i >> 3] |= (uint8_t)(0x80 >> (i & 7));
		}
	}
	return nb;
}

static void
bl_unpack(bitlist *bl, const uint8_t *in, size_t len)
{
	size_t i;

	bl->len = 8 * len;
	for (i = 0; i < bl->len; i ++) {
		bl->b[i] = (uint8_t)((in[i >> 3] >> (7 - (i & 7))) & 1);
	}
}

static uint32_t
bl_read(const bitlist *bl, size_t *pos, unsigned nbits)
{
	uint32_t v = 0;

	while (nbits -- > 0) {
		v = (v << 1) | bl->b[(*pos) ++];
	}
	return v;
}

/* Bits left in the last byte read must be 0. */
static int
bl_tail_zero(const bitlist *bl, size_t pos)
{
	while (pos % 8 != 0) {
		if (bl->b[pos ++]) {
			return 0;
		}
	}
	return 1;
}

/* Fixed width: modq (bits = 14, unsigned) or trim (signed). */
static size_t
ref_encode_fixed(uint8_t *out, const int32_t *x, size_t n, unsigned bits)
{
	static bitlist bl;
	size_t u;

	bl.len = 0;
	for (u = 0; u < n; u ++) {
		bl_push(&bl, (uint32_t)x[u] & ((1u << bits) - 1), bits);
	}
	return bl_pack(out, &bl);
}

/* Returns bytes read or the error code. */
static int
ref_decode_fixed(int32_t *x, size_t n, unsigned bits, int is_modq,
	const uint8_t *in, size_t len)
{
	static bitlist bl;
	size_t need = (n * bits + 7) / 8, u, pos = 0;

	if (len < need) {
		return FA_ERR_LENGTH;
	}
	bl_unpack(&bl, in, need);
	for (u = 0; u < n; u ++) {
		uint32_t w = bl_read(&bl, &pos, bits);

		if (is_modq) {
			if (w >= Q) {
				return FA_ERR_COEFF_RANGE;
			}
			x[u] = (int32_t)w;
		} else {
			if (w == (1u << (bits - 1))) {
				return FA_ERR_COEFF_RANGE;
			}
			x[u] = w >= (1u << (bits - 1))
				? (int32_t)w - (1 << bits) : (int32_t)w;
		}
	}
	if (!bl_tail_zero(&bl, pos)) {
		return FA_ERR_PADDING;
	}
	return (int)need;
}

static size_t
ref_encode_comp(uint8_t *out, const int32_t *x, size_t n)
{
	static bitlist bl;
	size_t u;

	bl.len = 0;
	for (u = 0; u < n; u ++) {
		uint32_t a = (uint32_t)(x[u] < 0 ? -x[u] : x[u]);

		bl_push(&bl, x[u] < 0, 1);
		bl_push(&bl, a & 127, 7);
		bl_push(&bl, 0, a >> 7);
		bl_push(&bl, 1, 1);
	}
	return bl_pack(out, &bl);
}

static int
ref_decode_comp(int32_t *x, size_t n, const uint8_t *in, size_t len)
{
	static bitlist bl;
	size_t u, pos = 0;

	bl_unpack(&bl, in, len);
	for (u = 0; u < n; u ++) {
		uint32_t s, a;

		if (pos + 8 > bl.len) {
			return FA_ERR_LENGTH;
		}
		s = bl_read(&bl, &pos, 1);
		a = bl_read(&bl, &pos, 7);
		for (;;) {
			if (pos >= bl.len) {
				return FA_ERR_LENGTH;
			}
			if (bl.b[pos ++]) {
				break;
			}
			a += 128;
			if (a > 2047) {
				return FA_ERR_COEFF_RANGE;
			}
		}
		if (s && a == 0) {
			return FA_ERR_MINUS_ZERO;
		}
		x[u] = s ? -(int32_t)a : (int32_t)a;
	}
	if (!bl_tail_zero(&bl, pos)) {
		return FA_ERR_PADDING;
	}
	return (int)((pos + 7) / 8);
}

/* ------------------------------------------------------------------ */
/* Library calls on a common interface. */

enum fmt { F_MODQ, F_TRIM8, F_TRIM16, F_COMP };

static const char *fmt_name[] = { "modq", "trim_i8", "trim_i16", "comp" };

/* Encode x (int32 values) with the library; returns its length or 0. */
static size_t
lib_encode(enum fmt f, uint8_t *out, size_t max, const int32_t *x,
	unsigned logn, unsigned bits)
{
	static uint16_t xu[1024];
	static int8_t x8[1024];
	static int16_t x16[1024];
	size_t u, n = MKN(logn);

	for (u = 0; u < n; u ++) {
		xu[u] = (uint16_t)x[u];
		x8[u] = (int8_t)x[u];
		x16[u] = (int16_t)x[u];
	}
	switch (f) {
	case F_MODQ:   return fa_modq_encode(out, max, xu, logn);
	case F_TRIM8:  return fa_trim_i8_encode(out, max, x8, logn, bits);
	case F_TRIM16: return fa_trim_i16_encode(out, max, x16, logn, bits);
	default:       return fa_comp_encode(out, max, x16, logn);
	}
}

/* Decode with the library from a heap copy of exactly len bytes. */
static int
lib_decode(enum fmt f, int32_t *x, unsigned logn, unsigned bits,
	const uint8_t *in, size_t len)
{
	static uint16_t xu[1024];
	static int8_t x8[1024];
	static int16_t x16[1024];
	uint8_t *buf = malloc(len ? len : 1);
	size_t u, n = MKN(logn);
	int r;

	memcpy(buf, in, len);
	switch (f) {
	case F_MODQ:   r = fa_modq_decode(xu, logn, buf, len); break;
	case F_TRIM8:  r = fa_trim_i8_decode(x8, logn, bits, buf, len); break;
	case F_TRIM16: r = fa_trim_i16_decode(x16, logn, bits, buf, len); break;
	default:       r = fa_comp_decode(x16, logn, buf, len); break;
	}
	free(buf);
	if (r > 0 && logn >= 1 && logn <= 10) {
		for (u = 0; u < n; u ++) {
			x[u] = f == F_MODQ ? xu[u] : f == F_TRIM8 ? x8[u] : x16[u];
		}
	}
	return r;
}

static int
ref_decode(enum fmt f, int32_t *x, unsigned logn, unsigned bits,
	const uint8_t *in, size_t len)
{
	size_t n = MKN(logn);

	switch (f) {
	case F_MODQ:  return ref_decode_fixed(x, n, 14, 1, in, len);
	case F_COMP:  return ref_decode_comp(x, n, in, len);
	default:      return ref_decode_fixed(x, n, bits, 0, in, len);
	}
}

static size_t
ref_encode(enum fmt f, uint8_t *out, const int32_t *x, unsigned logn,
	unsigned bits)
{
	size_t n = MKN(logn);

	switch (f) {
	case F_MODQ:  return ref_encode_fixed(out, x, n, 14);
	case F_COMP:  return ref_encode_comp(out, x, n);
	default:      return ref_encode_fixed(out, x, n, bits);
	}
}

/* Largest allowed |value| (modq: q-1, values >= 0). */
static int32_t
fmt_max(enum fmt f, unsigned bits)
{
	switch (f) {
	case F_MODQ: return Q - 1;
	case F_COMP: return 2047;
	default:     return (1 << (bits - 1)) - 1;
	}
}

static void
rand_values(int32_t *x, size_t n, enum fmt f, unsigned bits, int kind)
{
	int32_t mx = fmt_max(f, bits);
	size_t u;

	for (u = 0; u < n; u ++) {
		int32_t v;

		switch (kind) {
		case 0:   /* uniform over the range */
			v = (int32_t)(tu_rand64(&rs) % (uint64_t)(2 * mx + 1)) - mx;
			break;
		case 1:   /* extremes */
			v = (tu_rand64(&rs) & 1) ? mx : -mx;
			break;
		case 2:   /* small (Gaussian-like signature values) */
			v = (int32_t)(tu_rand64(&rs) % 401) - 200;
			if (v > mx) v = mx;
			if (v < -mx) v = -mx;
			break;
		default:  /* zero */
			v = 0;
			break;
		}
		if (f == F_MODQ) {
			v = v < 0 ? -v : v;
		}
		x[u] = v;
	}
}

/* ------------------------------------------------------------------ */

/* The bit widths tested per format. */
static unsigned
bits_lo(enum fmt f)
{
	return f == F_TRIM8 || f == F_TRIM16 ? 2 : 0;
}

static unsigned
bits_hi(enum fmt f)
{
	return f == F_TRIM8 ? 8 : f == F_TRIM16 ? 16 : 0;
}

static void
test_roundtrip(void)
{
	static uint8_t enc[4096], ref[4096];
	static int32_t x[1024], y[1024];
	unsigned logn, bits;
	int f, kind;

	for (f = F_MODQ; f <= F_COMP; f ++) {
		for (logn = 1; logn <= 10; logn ++) {
			for (bits = bits_lo(f); bits <= bits_hi(f); bits ++) {
				for (kind = 0; kind < 4; kind ++) {
					size_t n = MKN(logn), len, rlen, need;
					int r, same = 1;

					rand_values(x, n, f, bits, kind);
					rlen = ref_encode(f, ref, x, logn, bits);
					need = lib_encode(f, NULL, 0, x, logn, bits);
					len = lib_encode(f, enc, sizeof enc, x, logn,
						bits);
					CHECK(len == rlen && need == rlen
						&& memcmp(enc, ref, len) == 0,
						"%s encode logn %u bits %u kind %d",
						fmt_name[f], logn, bits, kind);
					r = lib_decode(f, y, logn, bits, enc, len);
					for (size_t u = 0; u < n; u ++) {
						same &= x[u] == y[u];
					}
					CHECK(r == (int)len && same,
						"%s decode logn %u bits %u kind %d: %d",
						fmt_name[f], logn, bits, kind, r);
					/* Longer input: reads the same bytes. */
					enc[len] = 0xFF;
					r = lib_decode(f, y, logn, bits, enc, len + 1);
					CHECK(r == (int)len, "%s extra byte: %d",
						fmt_name[f], r);

					/* Output buffer one byte short: 0, no
					   write. */
					memset(enc, 0x5A, len);
					CHECK(lib_encode(f, enc, len - 1, x, logn,
						bits) == 0, "%s short buffer",
						fmt_name[f]);
					CHECK(enc[0] == 0x5A && enc[len - 1] == 0x5A,
						"%s wrote into short buffer",
						fmt_name[f]);
				}
			}
		}
	}
}

/* Every prefix shorter than the encoding: FA_ERR_LENGTH. */
static void
test_truncation(void)
{
	static uint8_t enc[4096];
	static int32_t x[1024], y[1024];
	unsigned logn, bits;
	int f;

	for (f = F_MODQ; f <= F_COMP; f ++) {
		for (logn = 1; logn <= 10; logn ++) {
			for (bits = bits_lo(f); bits <= bits_hi(f);
				bits += (logn < 10 ? 1 : 5))
			{
				size_t n = MKN(logn), len, k;
				int ok = 1;

				rand_values(x, n, f, bits, 0);
				len = lib_encode(f, enc, sizeof enc, x, logn, bits);
				for (k = 0; k < len; k ++) {
					ok &= lib_decode(f, y, logn, bits, enc, k)
						== FA_ERR_LENGTH;
				}
				CHECK(ok, "%s truncation logn %u bits %u",
					fmt_name[f], logn, bits);
			}
		}
	}
}

/* Specific malformed inputs, each with its error code. */
static void
test_malformed(void)
{
	static uint8_t enc[4096];
	static int32_t x[1024], y[1024];
	static bitlist bl;
	unsigned logn, bits;

	for (logn = 1; logn <= 10; logn ++) {
		size_t n = MKN(logn), len, pos, u;

		/* modq: a value >= q at a random position (q and 16383). */
		rand_values(x, n, F_MODQ, 0, 0);
		pos = (size_t)(tu_rand64(&rs) % n);
		x[pos] = Q;
		len = ref_encode(F_MODQ, enc, x, logn, 0);
		CHECK(lib_decode(F_MODQ, y, logn, 0, enc, len)
			== FA_ERR_COEFF_RANGE, "modq q logn %u", logn);
		x[pos] = 16383;
		len = ref_encode(F_MODQ, enc, x, logn, 0);
		CHECK(lib_decode(F_MODQ, y, logn, 0, enc, len)
			== FA_ERR_COEFF_RANGE, "modq 16383 logn %u", logn);
		CHECK(lib_encode(F_MODQ, enc, sizeof enc, x, logn, 0) == 0,
			"modq encode 16383");
		x[pos] = Q;
		CHECK(lib_encode(F_MODQ, enc, sizeof enc, x, logn, 0) == 0,
			"modq encode q");
		x[pos] = Q - 1;
		len = ref_encode(F_MODQ, enc, x, logn, 0);
		CHECK(lib_decode(F_MODQ, y, logn, 0, enc, len) == (int)len,
			"modq q-1");
		/* Unused bits (only logn = 1: 28 bits in 4 bytes). */
		if ((14 * n) % 8 != 0) {
			size_t b;

			for (b = 0; b < 8 - (14 * n) % 8; b ++) {
				uint8_t save = enc[len - 1];

				enc[len - 1] |= (uint8_t)(1u << b);
				CHECK(lib_decode(F_MODQ, y, logn, 0, enc, len)
					== FA_ERR_PADDING, "modq pad bit %zu", b);
				enc[len - 1] = save;
			}
		}

		/* trim: -2^(bits-1) and unused bits, every width. */
		for (bits = 2; bits <= 16; bits ++) {
			int f;

			for (f = F_TRIM8; f <= F_TRIM16; f ++) {
				size_t b, rem;

				if (bits > bits_hi(f)) {
					continue;
				}
				rand_values(x, n, f, bits, 0);
				pos = (size_t)(tu_rand64(&rs) % n);
				x[pos] = -(1 << (bits - 1));
				len = ref_encode(f, enc, x, logn, bits);
				CHECK(lib_decode(f, y, logn, bits, enc, len)
					== FA_ERR_COEFF_RANGE,
					"%s min logn %u bits %u", fmt_name[f],
					logn, bits);
				CHECK(lib_encode(f, enc, sizeof enc, x, logn,
					bits) == 0, "%s encode min", fmt_name[f]);
				if (f == F_TRIM16 || bits < 8) {
					x[pos] = 1 << (bits - 1);
					CHECK(lib_encode(f, enc, sizeof enc, x, logn,
						bits) == 0, "%s encode max+1",
						fmt_name[f]);
				}
				x[pos] = 0;
				len = ref_encode(f, enc, x, logn, bits);
				rem = (n * bits) % 8;
				for (b = 0; rem != 0 && b < 8 - rem; b ++) {
					uint8_t save = enc[len - 1];

					enc[len - 1] |= (uint8_t)(1u << b);
					CHECK(lib_decode(f, y, logn, bits, enc, len)
						== FA_ERR_PADDING,
						"%s pad logn %u bits %u",
						fmt_name[f], logn, bits);
					enc[len - 1] = save;
				}
			}
		}

		/* comp: built bit by bit. */
		for (int c = 0; c < 4; c ++) {
			size_t bad = (size_t)(tu_rand64(&rs) % n);
			int expect = 0, whole_byte = 0;

			rand_values(x, n, F_COMP, 0, 2);
			bl.len = 0;
			for (u = 0; u < n; u ++) {
				uint32_t a = (uint32_t)(x[u] < 0 ? -x[u] : x[u]);

				if (u == bad && c == 0) {
					/* minus zero */
					bl_push(&bl, 0x80, 8);
					bl_push(&bl, 1, 1);
					expect = FA_ERR_MINUS_ZERO;
					continue;
				}
				if (u == bad && c == 1) {
					/* 16 zeros: |x| >= 2048 */
					bl_push(&bl, 0x7F, 8);
					bl_push(&bl, 1, 17);
					expect = FA_ERR_COEFF_RANGE;
					continue;
				}
				if (u == bad && c == 2) {
					/* exactly 2047 (15 zeros): valid */
					bl_push(&bl, 0xFF, 8);
					bl_push(&bl, 1, 16);
					x[u] = -2047;
					continue;
				}
				bl_push(&bl, (uint32_t)(x[u] < 0) << 7 | (a & 127),
					8);
				bl_push(&bl, 1, (a >> 7) + 1);
			}
			if (c == 3) {
				/* a 1 in the unused bits (or a whole byte). */
				if (bl.len % 8 == 0) {
					bl_push(&bl, 1, 8);
					whole_byte = 1;
				} else {
					bl_push(&bl, 1, 8 - bl.len % 8);
				}
				expect = FA_ERR_PADDING;
			}
			len = bl_pack(enc, &bl);
			if (expect == 0) {
				int same = 1;

				CHECK(lib_decode(F_COMP, y, logn, 0, enc, len)
					== (int)len, "comp 2047 logn %u", logn);
				for (u = 0; u < n; u ++) {
					same &= x[u] == y[u];
				}
				CHECK(same, "comp 2047 values");
			} else if (whole_byte) {
				/* The extra byte is not read: no error. */
				CHECK(lib_decode(F_COMP, y, logn, 0, enc, len)
					== (int)len - 1, "comp extra byte");
			} else {
				CHECK(lib_decode(F_COMP, y, logn, 0, enc, len)
					== expect, "comp case %d logn %u", c, logn);
			}
		}
		/* Encoder range. */
		rand_values(x, n, F_COMP, 0, 2);
		x[n - 1] = 2048;
		CHECK(lib_encode(F_COMP, enc, sizeof enc, x, logn, 0) == 0,
			"comp encode 2048");
		x[n - 1] = -2048;
		CHECK(lib_encode(F_COMP, NULL, 0, x, logn, 0) == 0,
			"comp encode -2048");
		x[n - 1] = -32768;
		CHECK(lib_encode(F_COMP, enc, sizeof enc, x, logn, 0) == 0,
			"comp encode -32768");
	}
}

static void
test_badargs(void)
{
	uint8_t buf[16] = { 0 };
	int16_t x16[2048] = { 0 };
	int8_t x8[2048] = { 0 };
	uint16_t xu[2048] = { 0 };

	CHECK(fa_modq_encode(buf, sizeof buf, xu, 0) == 0, "modq logn 0");
	CHECK(fa_modq_encode(NULL, 0, xu, 11) == 0, "modq logn 11");
	CHECK(fa_modq_decode(xu, 0, buf, sizeof buf) == FA_ERR_BADARG, "x");
	CHECK(fa_modq_decode(xu, 11, buf, sizeof buf) == FA_ERR_BADARG, "x");
	CHECK(fa_trim_i8_encode(NULL, 0, x8, 3, 1) == 0, "trim8 bits 1");
	CHECK(fa_trim_i8_encode(NULL, 0, x8, 3, 9) == 0, "trim8 bits 9");
	CHECK(fa_trim_i8_encode(NULL, 0, x8, 0, 8) == 0, "trim8 logn 0");
	CHECK(fa_trim_i8_decode(x8, 3, 9, buf, sizeof buf) == FA_ERR_BADARG,
		"x");
	CHECK(fa_trim_i8_decode(x8, 3, 0, buf, sizeof buf) == FA_ERR_BADARG,
		"x");
	CHECK(fa_trim_i16_encode(NULL, 0, x16, 3, 17) == 0, "trim16 bits 17");
	CHECK(fa_trim_i16_decode(x16, 3, 17, buf, sizeof buf)
		== FA_ERR_BADARG, "x");
	CHECK(fa_trim_i16_decode(x16, 11, 12, buf, sizeof buf)
		== FA_ERR_BADARG, "x");
	CHECK(fa_comp_encode(NULL, 0, x16, 11) == 0, "comp logn 11");
	CHECK(fa_comp_decode(x16, 0, buf, sizeof buf) == FA_ERR_BADARG, "x");

	/* Sizes agree with the public macros. */
	for (unsigned logn = 1; logn <= 10; logn ++) {
		size_t fg = fa_trim_i8_encode(NULL, 0, x8, logn,
			FA_FG_BITS(logn));
		size_t bF = fa_trim_i8_encode(NULL, 0, x8, logn, 8);

		CHECK(1 + fa_modq_encode(NULL, 0, xu, logn)
			== FA_PUBKEY_SIZE(logn), "pk size logn %u", logn);
		CHECK(1 + 2 * fg + bF == FA_PRIVKEY_SIZE(logn),
			"sk size logn %u", logn);
		CHECK(41 + fa_trim_i16_encode(NULL, 0, x16, logn,
			FA_SIG_CT_BITS(logn)) == FA_SIG_CT_SIZE(logn),
			"ct sig size logn %u", logn);
		/* All-zero s2: 9 bits per value. */
		CHECK(fa_comp_encode(NULL, 0, x16, logn)
			== (9u * (1u << logn) + 7) / 8, "comp zeros");
	}
}

/*
 * Mutations of valid encodings (bit flips, byte changes, truncation,
 * extension): library == reference (code and values); on success the
 * re-encoding equals the bytes read.
 */
static void
test_mutations(void)
{
	static uint8_t enc[4200], re[4200];
	static int32_t x[1024], y[1024], z[1024];
	unsigned logn;
	int f, iter;

	for (f = F_MODQ; f <= F_COMP; f ++) {
		for (logn = 1; logn <= 10; logn ++) {
			unsigned bits = f == F_TRIM8 ? FA_FG_BITS(logn)
				: f == F_TRIM16 ? FA_SIG_CT_BITS(logn) : 0;
			int nok = 0, nerr = 0;

			for (iter = 0; iter < (logn >= 9 ? 60 : 300); iter ++) {
				size_t n = MKN(logn), len, u, k;
				int r, rr, same = 1;

				rand_values(x, n, f, bits, iter % 3 == 0 ? 0 : 2);
				len = lib_encode(f, enc, sizeof enc, x, logn, bits);
				switch (tu_rand64(&rs) % 4) {
				case 0:
					k = (size_t)(tu_rand64(&rs) % (8 * len));
					enc[k >> 3] ^= (uint8_t)(1u << (k & 7));
					break;
				case 1:
					k = (size_t)(tu_rand64(&rs) % len);
					enc[k] = (uint8_t)tu_rand64(&rs);
					break;
				case 2:
					len -= (size_t)(tu_rand64(&rs) % 3);
					break;
				default:
					enc[len ++] = (uint8_t)tu_rand64(&rs);
					k = (size_t)(tu_rand64(&rs) % (8 * len));
					enc[k >> 3] ^= (uint8_t)(1u << (k & 7));
					break;
				}
				r = lib_decode(f, y, logn, bits, enc, len);
				rr = ref_decode(f, z, logn, bits, enc, len);
				if (r > 0) {
					for (u = 0; u < n; u ++) {
						same &= y[u] == z[u];
					}
				}
				CHECK(r == rr && same, "%s mutation logn %u: %d %d",
					fmt_name[f], logn, r, rr);
				if (r > 0) {
					size_t l2 = lib_encode(f, re, sizeof re, y,
						logn, bits);

					CHECK(l2 == (size_t)r
						&& memcmp(re, enc, l2) == 0,
						"%s canonical logn %u", fmt_name[f],
						logn);
					nok ++;
				} else {
					nerr ++;
				}
			}
			CHECK(nok > 0 && nerr > 0, "%s logn %u: %d ok, %d errors",
				fmt_name[f], logn, nok, nerr);
		}
	}
}

/* ------------------------------------------------------------------ */
/* NIST KAT: keys and compressed signatures re-encode identically. */

static int
hexv(int c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

static size_t
unhex(uint8_t *dst, size_t max, const char *s)
{
	size_t n = 0;

	while (hexv(s[0]) >= 0 && hexv(s[1]) >= 0 && n < max) {
		dst[n ++] = (uint8_t)((hexv(s[0]) << 4) | hexv(s[1]));
		s += 2;
	}
	return n;
}

static void
test_kat(void)
{
	static char line[16384];
	static uint8_t pk[1793], sk[2305], sm[4000], out[4000];
	unsigned logn;

	for (logn = 9; logn <= 10; logn ++) {
		size_t n = MKN(logn), pk_len = 0, sk_len = 0, sm_len = 0;
		size_t mlen = 0;
		unsigned fgb = FA_FG_BITS(logn), nrec;
		int rec = 0;
		FILE *fp = tu_kat_open(1u << logn, &nrec);

		if (fp == NULL) {
			continue;
		}
		while (rec < 10 && fgets(line, sizeof line, fp) != NULL) {
			int8_t f[1024], g[1024], F[1024];
			uint16_t h[1024];
			int16_t s2[1024];
			size_t off, l;
			int r;

			if (strncmp(line, "mlen = ", 7) == 0) {
				mlen = (size_t)strtoul(line + 7, NULL, 10);
			} else if (strncmp(line, "pk = ", 5) == 0) {
				pk_len = unhex(pk, sizeof pk, line + 5);
			} else if (strncmp(line, "sk = ", 5) == 0) {
				sk_len = unhex(sk, sizeof sk, line + 5);
			}
			if (strncmp(line, "sm = ", 5) != 0) {
				continue;
			}
			sm_len = unhex(sm, sizeof sm, line + 5);
			rec ++;

			CHECK(pk_len == FA_PUBKEY_SIZE(logn), "pk len");
			r = fa_modq_decode(h, logn, pk + 1, pk_len - 1);
			l = fa_modq_encode(out, sizeof out, h, logn);
			CHECK(r == (int)(pk_len - 1) && l == pk_len - 1
				&& memcmp(out, pk + 1, l) == 0, "KAT pk");

			CHECK(sk_len == FA_PRIVKEY_SIZE(logn), "sk len");
			off = 1;
			r = fa_trim_i8_decode(f, logn, fgb, sk + off, sk_len - off);
			l = fa_trim_i8_encode(out, sizeof out, f, logn, fgb);
			CHECK(r > 0 && l == (size_t)r
				&& memcmp(out, sk + off, l) == 0, "KAT f");
			off += l;
			r = fa_trim_i8_decode(g, logn, fgb, sk + off, sk_len - off);
			l = fa_trim_i8_encode(out, sizeof out, g, logn, fgb);
			CHECK(r > 0 && l == (size_t)r
				&& memcmp(out, sk + off, l) == 0, "KAT g");
			off += l;
			r = fa_trim_i8_decode(F, logn, 8, sk + off, sk_len - off);
			l = fa_trim_i8_encode(out, sizeof out, F, logn, 8);
			CHECK(r == (int)n && off + l == sk_len
				&& memcmp(out, sk + off, l) == 0, "KAT F");

			/* sm: siglen (2) | nonce (40) | msg | 0x20+logn | s2 */
			off = 2 + 40 + mlen + 1;
			CHECK(sm[off - 1] == 0x20 + logn, "sig header");
			r = fa_comp_decode(s2, logn, sm + off, sm_len - off);
			l = fa_comp_encode(out, sizeof out, s2, logn);
			CHECK(r == (int)(sm_len - off) && l == (size_t)r
				&& memcmp(out, sm + off, l) == 0,
				"KAT sig n=%zu rec %d", n, rec);
		}
		CHECK(rec == (nrec < 10 ? (int)nrec : 10), "KAT records: %d",
			rec);
		fclose(fp);
	}
}

int
main(void)
{
	test_roundtrip();
	test_truncation();
	test_malformed();
	test_badargs();
	test_mutations();
	test_kat();
	return tu_finish("test_codec");
}
