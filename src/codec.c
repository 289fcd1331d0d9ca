/*
 * codec.c -- bit-level encodings of keys and signatures (Falcon round 3,
 * specification v1.2, section 3.11), without the header bytes.
 *
 * All formats write values most significant bit first, one after the
 * other with no alignment, and pad the last byte with zero bits:
 *
 *  - modq:  14 bits per value, values in [0, q-1] (public key h);
 *  - trim:  `bits` bits per value, two's complement, values in
 *           [-(2^(bits-1) - 1), 2^(bits-1) - 1] (f, g, F, CT-format s2);
 *           -2^(bits-1) is not a valid encoding;
 *  - comp:  per value: sign bit, the 7 low bits of |x|, then |x| >> 7 in
 *           unary (that many 0 bits, then a 1), |x| <= 2047; 0 has a
 *           positive sign only ("minus zero" is invalid).
 *
 * Decoders accept exactly one encoding per value vector (canonical):
 * every rejected pattern has its error code, and re-encoding the decoded
 * values gives back the bytes that were read. They never read past
 * max_in_len bytes, and return the number of bytes read; a caller whose
 * field must be consumed entirely compares that with the field length.
 *
 * Side channels: the fixed-width encoders and decoders (used on private
 * keys) do not branch on or index with values, except that a decoder
 * stops at the first invalid value, which only reveals that the input is
 * invalid. The compressed format is variable-length by nature and is only
 * used for signatures, which are public.
 */

#include "inner.h"
#include "ct_declassify.h"

/* ------------------------------------------------------------------ */
/* Bit writer / reader, most significant bit first. */

typedef struct {
	uint8_t *buf;
	uint32_t acc;       /* pending bits are the acc_len low bits */
	unsigned acc_len;   /* in [0, 7] between calls */
} bit_writer;

/* Append the nbits low bits of v (v < 2^nbits, nbits <= 24). */
static inline void
bw_put(bit_writer *bw, uint32_t v, unsigned nbits)
{
	bw->acc = (bw->acc << nbits) | v;
	bw->acc_len += nbits;
	while (bw->acc_len >= 8) {
		bw->acc_len -= 8;
		*bw->buf ++ = (uint8_t)(bw->acc >> bw->acc_len);
	}
}

/* Write the pending bits, if any, padded with zeros to a full byte. */
static inline void
bw_flush(bit_writer *bw)
{
	if (bw->acc_len > 0) {
		*bw->buf ++ = (uint8_t)(bw->acc << (8 - bw->acc_len));
		bw->acc_len = 0;
	}
}

typedef struct {
	const uint8_t *buf;
	size_t pos;         /* bytes consumed */
	uint32_t acc;       /* unread bits are the acc_len low bits */
	unsigned acc_len;
} bit_reader;

/*
 * Read nbits (1..16) bits. The caller guarantees that the bytes needed
 * exist (fixed-size formats check the total length first).
 */
static inline uint32_t
br_get(bit_reader *br, unsigned nbits)
{
	while (br->acc_len < nbits) {
		br->acc = (br->acc << 8) | br->buf[br->pos ++];
		br->acc_len += 8;
	}
	br->acc_len -= nbits;
	return (br->acc >> br->acc_len) & (((uint32_t)1 << nbits) - 1);
}

/* 1 if the bits left in the last read byte (fewer than 8) are all zero. */
static inline int
br_tail_is_zero(const bit_reader *br)
{
	return (br->acc & (((uint32_t)1 << br->acc_len) - 1)) == 0;
}

/* Bytes for n values of `bits` bits each. */
static inline size_t
packed_len(size_t n, unsigned bits)
{
	return (n * bits + 7) >> 3;
}

static inline int
logn_valid(unsigned logn)
{
	return logn >= FA_LOGN_MIN && logn <= FA_LOGN_MAX;
}

/* ------------------------------------------------------------------ */
/* modq: 14 bits per value in [0, q-1]. */

size_t
fa_modq_encode(void *out, size_t max_out_len,
	const uint16_t *x, unsigned logn)
{
	size_t n, u, out_len;
	uint32_t bad;
	bit_writer bw;

	if (!logn_valid(logn)) {
		return 0;
	}
	n = MKN(logn);
	/* bad gets bit 31 set if some x[u] >= q (x[u] <= 65535). */
	bad = 0;
	for (u = 0; u < n; u ++) {
		bad |= (FA_Q - 1u) - (uint32_t)x[u];
	}
	if (bad >> 31) {
		return 0;
	}
	out_len = packed_len(n, 14);
	if (out == NULL) {
		return out_len;
	}
	if (max_out_len < out_len) {
		return 0;
	}
	bw.buf = out;
	bw.acc = 0;
	bw.acc_len = 0;
	for (u = 0; u < n; u ++) {
		bw_put(&bw, x[u], 14);
	}
	bw_flush(&bw);
	return out_len;
}

int
fa_modq_decode(uint16_t *x, unsigned logn,
	const void *in, size_t max_in_len)
{
	size_t n, u, in_len;
	bit_reader br;

	if (!logn_valid(logn)) {
		return FA_ERR_BADARG;
	}
	n = MKN(logn);
	in_len = packed_len(n, 14);
	if (max_in_len < in_len) {
		return FA_ERR_LENGTH;
	}
	br.buf = in;
	br.pos = 0;
	br.acc = 0;
	br.acc_len = 0;
	for (u = 0; u < n; u ++) {
		uint32_t w = br_get(&br, 14);   /* in [0, 16383] */

		if (w >= FA_Q) {
			return FA_ERR_COEFF_RANGE;
		}
		x[u] = (uint16_t)w;
	}
	if (!br_tail_is_zero(&br)) {
		return FA_ERR_PADDING;
	}
	return (int)in_len;
}

/* ------------------------------------------------------------------ */
/* trim: signed values on `bits` bits. */

/*
 * Check that n values lie in [-(2^(bits-1) - 1), 2^(bits-1) - 1], without
 * branching on them. Returns 1 if all do.
 */
static int
trim_range_ok(const int8_t *x8, const int16_t *x16, size_t n, unsigned bits)
{
	int32_t maxv = ((int32_t)1 << (bits - 1)) - 1;
	uint32_t bad = 0;
	size_t u;

	for (u = 0; u < n; u ++) {
		int32_t v = x8 != NULL ? x8[u] : x16[u];

		/* maxv - v < 0 or maxv + v < 0 sets bit 31. */
		bad |= (uint32_t)(maxv - v) | (uint32_t)(maxv + v);
	}
	return (int)(1u - (bad >> 31));
}

/* Shared encoder: exactly one of x8, x16 is non-NULL. */
static size_t
trim_encode(void *out, size_t max_out_len,
	const int8_t *x8, const int16_t *x16, unsigned logn, unsigned bits,
	unsigned max_bits)
{
	size_t n, u, out_len;
	uint32_t mask;
	bit_writer bw;

	if (!logn_valid(logn) || bits < 2 || bits > max_bits) {
		return 0;
	}
	n = MKN(logn);
	/* declassified: an out-of-range value is an error (no output) */
	if (!fa_declassify_int(trim_range_ok(x8, x16, n, bits))) {
		return 0;
	}
	out_len = packed_len(n, bits);
	if (out == NULL) {
		return out_len;
	}
	if (max_out_len < out_len) {
		return 0;
	}
	mask = ((uint32_t)1 << bits) - 1;
	bw.buf = out;
	bw.acc = 0;
	bw.acc_len = 0;
	for (u = 0; u < n; u ++) {
		int32_t v = x8 != NULL ? x8[u] : x16[u];

		bw_put(&bw, (uint32_t)v & mask, bits);
	}
	bw_flush(&bw);
	return out_len;
}

/* Shared decoder: exactly one of x8, x16 is non-NULL. */
static int
trim_decode(int8_t *x8, int16_t *x16, unsigned logn, unsigned bits,
	unsigned max_bits, const void *in, size_t max_in_len)
{
	size_t n, u, in_len;
	uint32_t sign_bit, bad;
	bit_reader br;

	if (!logn_valid(logn) || bits < 2 || bits > max_bits) {
		return FA_ERR_BADARG;
	}
	n = MKN(logn);
	in_len = packed_len(n, bits);
	if (max_in_len < in_len) {
		return FA_ERR_LENGTH;
	}
	sign_bit = (uint32_t)1 << (bits - 1);
	br.buf = in;
	br.pos = 0;
	br.acc = 0;
	br.acc_len = 0;
	bad = 0;
	for (u = 0; u < n; u ++) {
		uint32_t w = br_get(&br, bits);   /* in [0, 2^bits - 1] */
		int32_t v;

		/* -2^(bits-1) (sign bit alone) is not a valid value; noted
		   without a branch (private keys are decoded here) */
		bad |= ((w ^ sign_bit) - 1u) >> 31;
		/* Sign extension: subtract 2^bits when the sign bit is set. */
		v = (int32_t)w - (int32_t)((w & sign_bit) << 1);
		if (x8 != NULL) {
			x8[u] = (int8_t)v;
		} else {
			x16[u] = (int16_t)v;
		}
	}
	/* declassified: the verdict only rejects the encoding */
	if (fa_declassify_u32(bad)) {
		return FA_ERR_COEFF_RANGE;
	}
	if (!br_tail_is_zero(&br)) {
		return FA_ERR_PADDING;
	}
	return (int)in_len;
}

size_t
fa_trim_i8_encode(void *out, size_t max_out_len,
	const int8_t *x, unsigned logn, unsigned bits)
{
	return trim_encode(out, max_out_len, x, NULL, logn, bits, 8);
}

int
fa_trim_i8_decode(int8_t *x, unsigned logn, unsigned bits,
	const void *in, size_t max_in_len)
{
	return trim_decode(x, NULL, logn, bits, 8, in, max_in_len);
}

size_t
fa_trim_i16_encode(void *out, size_t max_out_len,
	const int16_t *x, unsigned logn, unsigned bits)
{
	return trim_encode(out, max_out_len, NULL, x, logn, bits, 16);
}

int
fa_trim_i16_decode(int16_t *x, unsigned logn, unsigned bits,
	const void *in, size_t max_in_len)
{
	return trim_decode(NULL, x, logn, bits, 16, in, max_in_len);
}

/* ------------------------------------------------------------------ */
/* comp: sign, 7 low bits, unary high part; |x| <= 2047. */

#define COMP_MAX_ABS 2047

size_t
fa_comp_encode(void *out, size_t max_out_len,
	const int16_t *x, unsigned logn)
{
	size_t n, u, nbits, out_len;
	bit_writer bw;

	if (!logn_valid(logn)) {
		return 0;
	}
	n = MKN(logn);
	/* Each value takes 8 + (|x| >> 7) + 1 bits. */
	nbits = 0;
	for (u = 0; u < n; u ++) {
		int32_t v = x[u];
		uint32_t a = (uint32_t)(v < 0 ? -v : v);

		if (a > COMP_MAX_ABS) {
			return 0;
		}
		nbits += 9 + (a >> 7);
	}
	out_len = (nbits + 7) >> 3;
	if (out == NULL) {
		return out_len;
	}
	if (max_out_len < out_len) {
		return 0;
	}
	bw.buf = out;
	bw.acc = 0;
	bw.acc_len = 0;
	for (u = 0; u < n; u ++) {
		int32_t v = x[u];
		uint32_t s = v < 0;
		uint32_t a = (uint32_t)(v < 0 ? -v : v);   /* in [0, 2047] */

		bw_put(&bw, (s << 7) | (a & 127), 8);
		/* (a >> 7) zeros then a one: the value 1 on (a >> 7) + 1 bits. */
		bw_put(&bw, 1, (a >> 7) + 1);
	}
	bw_flush(&bw);
	return out_len;
}

int
fa_comp_decode(int16_t *x, unsigned logn,
	const void *in, size_t max_in_len)
{
	const uint8_t *buf = in;
	size_t n, u, pos;
	uint32_t acc;
	unsigned acc_len;

	if (!logn_valid(logn)) {
		return FA_ERR_BADARG;
	}
	n = MKN(logn);
	pos = 0;
	acc = 0;
	acc_len = 0;   /* unread bits in acc, in [0, 7] between values */
	for (u = 0; u < n; u ++) {
		uint32_t b, s, a;

		/* Sign and 7 low bits: always one new byte. */
		if (pos >= max_in_len) {
			return FA_ERR_LENGTH;
		}
		acc = (acc << 8) | buf[pos ++];
		b = (acc >> acc_len) & 0xFF;
		s = b >> 7;
		a = b & 127;

		/* High part in unary: count 0 bits up to the first 1. */
		for (;;) {
			if (acc_len == 0) {
				if (pos >= max_in_len) {
					return FA_ERR_LENGTH;
				}
				acc = (acc << 8) | buf[pos ++];
				acc_len = 8;
			}
			acc_len --;
			if ((acc >> acc_len) & 1) {
				break;
			}
			a += 128;
			if (a > COMP_MAX_ABS) {
				return FA_ERR_COEFF_RANGE;
			}
		}

		if (s && a == 0) {
			return FA_ERR_MINUS_ZERO;
		}
		x[u] = (int16_t)(s ? -(int32_t)a : (int32_t)a);
	}
	if ((acc & (((uint32_t)1 << acc_len) - 1)) != 0) {
		return FA_ERR_PADDING;
	}
	return (int)pos;
}
