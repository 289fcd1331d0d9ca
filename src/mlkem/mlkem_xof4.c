/*
 * mlkem_xof4.c -- ML-KEM's Keccak work on four sponges at once: the
 * four-lane job runner (fa_mlkem_x4_run) over the keccak_x4 slot, and the
 * slot's portable kernel.
 *
 * State layout (the keccak_x4 contract, src/kernels.h): four
 * Keccak-f[1600] states interleaved, lane i (= x + 5 y) of state t at
 * st[4 i + t], so that one vector load gives lane i of all four.
 *
 * The runner keeps each of the four sponges busy with a job from an
 * ordered list; when a job finishes, its sponge takes the next one at
 * once, so that jobs of different kinds and lengths share permutations:
 *   SAMPLE_NTT  Algorithm 7: SHAKE128(rho || b0 || b1), squeezed block by
 *               block into the mlkem_rej_uniform parse until 256 values;
 *   CBD         Algorithm 8 after PRF_eta: SHAKE256(sigma || b0), 64 eta
 *               bytes (one block for eta = 2, two for eta = 3);
 *   H, J        SHA3-256 and SHAKE256 (32 bytes out) of m0 || m1, any
 *               length (one permutation per 136-byte block);
 *   ABSORB      full 136-byte blocks of m0 into a sponge state kept by
 *               the caller (a hash whose input is produced between
 *               runs: key generation's H(ek), row by row).
 * Outputs are those of the one-sponge functions (fa_mlkem_sample_ntt,
 * fa_mlkem_sample_cbd, fa_sha3_256, fa_shake256_2): a sponge's lane
 * words are the same whichever of the four it runs in.
 *
 * Timing: which job runs in which sponge, and how many permutations are
 * made, depends only on the job list and on the rejection counts of
 * SampleNTT, i.e. on the public seed rho (FIPS 203 allows SampleNTT to
 * vary in time); CBD, H and J take a fixed number of permutations given
 * their (public) lengths, and their secret bytes are only copied, XORed
 * and permuted.
 */

#include "mlkem/mlkem_inner.h"

static inline uint64_t
ld64(const uint8_t *b)
{
	return (uint64_t)b[0] | ((uint64_t)b[1] << 8)
		| ((uint64_t)b[2] << 16) | ((uint64_t)b[3] << 24)
		| ((uint64_t)b[4] << 32) | ((uint64_t)b[5] << 40)
		| ((uint64_t)b[6] << 48) | ((uint64_t)b[7] << 56);
}

static inline void
st64(uint8_t *b, uint64_t x)
{
	unsigned i;

	for (i = 0; i < 8; i ++) {
		b[i] = (uint8_t)(x >> (8 * i));
	}
}

/* The permutation of the sponges whose bit is set in `lanes`, one after
   the other on a de-interleaved copy. */
static void
permute_lanes(uint64_t *st, unsigned lanes)
{
	uint64_t a[25];
	unsigned t, i;

	for (t = 0; t < 4; t ++) {
		if (!((lanes >> t) & 1)) {
			continue;
		}
		for (i = 0; i < 25; i ++) {
			a[i] = st[4 * i + t];
		}
		fa_keccak_f1600(a);
		for (i = 0; i < 25; i ++) {
			st[4 * i + t] = a[i];
		}
	}
}

/* The keccak_x4 slot, portable: four permutations one after the other. */
void
fa_keccak_x4_portable(uint64_t *st)
{
	permute_lanes(st, 0xF);
}

/* ------------------------------------------------------------------ */

/* Sponge t := the absorbed one-block message seed32 || tail[0..tl)
   (tl <= 2), with the SHAKE padding (domain bits 1111, then pad10*1)
   for rate `rate` bytes. */
static void
load_seeded(uint64_t *st, unsigned t, const uint8_t seed32[32],
	const uint8_t *tail, unsigned tl, unsigned rate)
{
	unsigned i;
	uint64_t w = 0;

	for (i = 0; i < 25; i ++) {
		st[4 * i + t] = 0;
	}
	for (i = 0; i < 4; i ++) {
		st[4 * i + t] = ld64(seed32 + 8 * i);
	}
	for (i = 0; i < tl; i ++) {
		w |= (uint64_t)tail[i] << (8 * i);
	}
	st[4 * 4 + t] = w | ((uint64_t)0x1F << (8 * tl));
	st[4 * ((rate - 1) >> 3) + t] ^= (uint64_t)0x80 << 56;
}

/* XOR the 136-byte block src into the rate of sponge t. */
static void
xor_block136(uint64_t *st, unsigned t, const uint8_t *src)
{
	unsigned i;

	for (i = 0; i < FA_SHA3_256_RATE / 8; i ++) {
		st[4 * i + t] ^= ld64(src + 8 * i);
	}
}

/* XOR block b of m0 || m1 (nb blocks of 136 bytes with the padding:
   domain byte dsep after the message, 0x80 in the last byte) into sponge
   t. */
static void
absorb_block(uint64_t *st, unsigned t, const fa_mlkem_x4job *jb, size_t b,
	size_t nb, uint8_t dsep)
{
	uint8_t blk[FA_SHA3_256_RATE];
	size_t off = b * FA_SHA3_256_RATE, end = off + FA_SHA3_256_RATE;
	size_t len = jb->l0 + jb->l1, u;

	if (end > len) {
		end = len;
	}
	if (b != nb - 1 && (end <= jb->l0 || off >= jb->l0)) {
		/* a full block inside m0 or inside m1: XORed in place */
		xor_block136(st, t, end <= jb->l0 ? jb->m0 + off
			: jb->m1 + (off - jb->l0));
		return;
	}
	memset(blk, 0, sizeof blk);
	/* bytes [off, end) of m0 || m1 */
	if (off < jb->l0) {
		u = end < jb->l0 ? end : jb->l0;
		memcpy(blk, jb->m0 + off, u - off);
	}
	if (end > jb->l0) {
		size_t from = off > jb->l0 ? off - jb->l0 : 0;
		size_t to = end - jb->l0;

		memcpy(blk + (jb->l0 > off ? jb->l0 - off : 0), jb->m1 + from,
			to - from);
	}
	if (b == nb - 1) {
		blk[end - off] ^= dsep;
		blk[FA_SHA3_256_RATE - 1] ^= 0x80;
	}
	xor_block136(st, t, blk);
	memset(blk, 0, sizeof blk);
}

/* The first nbytes of sponge t's state as the output stream. */
static void
lane_bytes(uint8_t *out, const uint64_t *st, unsigned t, unsigned nbytes)
{
	const uint64_t *w = st + t;
	unsigned i;

	for (i = 0; i + 8 <= nbytes; i += 8, w += 4) {
		uint64_t x = *w;

#if defined(__GNUC__)
		/* a plain word copy: keeps the compiler from vectorising
		   this strided loop into slow gathers */
		__asm__ ("" : "+r" (x));
#endif
		st64(out + i, x);
	}
	for (; i < nbytes; i ++) {
		out[i] = (uint8_t)(st[4 * (i >> 3) + t] >> ((i & 7) << 3));
	}
}

/* Per-sponge bookkeeping: job index (-1: idle), progress (SAMPLE_NTT:
   values kept; CBD: bytes squeezed; H, J: blocks absorbed) and the
   number of blocks (H, J). */
typedef struct {
	int job;
	unsigned cnt;
	size_t nb;
} lane_state;

/* 272 values: a parsed block may overshoot 256 by up to 15 */
typedef union {
	int16_t vals[MLKEM_N + 16];
	uint8_t bytes[64 * 3];
} lane_buf;

static void
lane_start(uint64_t *st, unsigned t, lane_state *ls,
	const fa_mlkem_x4job *jb, int idx)
{
	ls->job = idx;
	ls->cnt = 0;
	switch (jb->kind) {
	case FA_X4_SAMPLE_NTT: {
		uint8_t tail[2];

		tail[0] = jb->b0;
		tail[1] = jb->b1;
		load_seeded(st, t, jb->seed, tail, 2, FA_SHAKE128_RATE);
		break;
	}
	case FA_X4_CBD:
		load_seeded(st, t, jb->seed, &jb->b0, 1, FA_SHAKE256_RATE);
		break;
	case FA_X4_ABSORB: {
		unsigned i;

		for (i = 0; i < 25; i ++) {
			st[4 * i + t] = jb->state[i];
		}
		ls->nb = jb->l0 / FA_SHA3_256_RATE;
		xor_block136(st, t, jb->m0);
		ls->cnt = 1;
		break;
	}
	default: {   /* H, J */
		unsigned i;

		for (i = 0; i < 25; i ++) {
			st[4 * i + t] = 0;
		}
		ls->nb = (jb->l0 + jb->l1) / FA_SHA3_256_RATE + 1;
		absorb_block(st, t, jb, 0, ls->nb,
			jb->kind == FA_X4_H ? 0x06 : 0x1F);
		ls->cnt = 1;
		break;
	}
	}
}

/* After a permutation: consume sponge t's output or absorb its next
   block. Returns 1 when the job is complete. */
static int
lane_step(uint64_t *st, unsigned t, lane_state *ls, lane_buf *lb,
	const fa_mlkem_x4job *jb, const struct fa_kernels *kt)
{
	switch (jb->kind) {
	case FA_X4_SAMPLE_NTT: {
		uint8_t buf[FA_SHAKE128_RATE + 8];

		lane_bytes(buf, st, t, FA_SHAKE128_RATE);
		memset(buf + FA_SHAKE128_RATE, 0, 8);
		/* values past the 256th are dropped: the first 256 are those
		   of Algorithm 7 */
		fa_k_mlkem_rej_uniform(kt, lb->vals, &ls->cnt, buf);
		if (ls->cnt < MLKEM_N) {
			return 0;
		}
		memcpy(jb->poly, lb->vals, MLKEM_N * sizeof(int16_t));
		return 1;
	}
	case FA_X4_CBD: {
		unsigned need = 64 * jb->eta - ls->cnt;

		if (need > FA_SHAKE256_RATE) {
			need = FA_SHAKE256_RATE;
		}
		lane_bytes(lb->bytes + ls->cnt, st, t, need);
		ls->cnt += need;
		if (ls->cnt < 64 * jb->eta) {
			return 0;   /* eta = 3: squeeze a second block */
		}
		fa_k_mlkem_cbd(kt, jb->poly, lb->bytes, jb->eta);
		memset(lb->bytes, 0, sizeof lb->bytes);
		return 1;
	}
	case FA_X4_ABSORB:
		if (ls->cnt < ls->nb) {
			xor_block136(st, t, jb->m0
				+ (size_t)ls->cnt * FA_SHA3_256_RATE);
			ls->cnt ++;
			return 0;
		}
		{
			unsigned i;

			for (i = 0; i < 25; i ++) {
				jb->state[i] = st[4 * i + t];
			}
		}
		return 1;
	default:   /* H, J */
		if (ls->cnt < ls->nb) {
			absorb_block(st, t, jb, ls->cnt, ls->nb,
				jb->kind == FA_X4_H ? 0x06 : 0x1F);
			ls->cnt ++;
			return 0;
		}
		lane_bytes(jb->out, st, t, 32);
		return 1;
	}
}

void
fa_mlkem_x4_run(const fa_mlkem_x4job *jobs, unsigned n,
	const struct fa_kernels *kt)
{
	uint64_t st[100];
	lane_state ls[4];
	lane_buf lb[4];
	unsigned t, next = 0, active = 0;

	for (t = 0; t < 4; t ++) {
		ls[t].job = -1;
		if (next < n) {
			lane_start(st, t, &ls[t], &jobs[next], (int)next);
			next ++;
			active |= 1u << t;
		}
	}
	while (active != 0) {
		/* the portable kernel permutes only the busy sponges; a
		   vector kernel does all four in one go */
		if (kt->keccak_x4 != NULL) {
			fa_k_keccak_x4(kt, st);
		} else {
			permute_lanes(st, active);
		}
		for (t = 0; t < 4; t ++) {
			if (ls[t].job < 0 || !lane_step(st, t, &ls[t], &lb[t],
				&jobs[ls[t].job], kt))
			{
				continue;
			}
			ls[t].job = -1;
			active &= ~(1u << t);
			if (next < n) {
				lane_start(st, t, &ls[t], &jobs[next], (int)next);
				next ++;
				active |= 1u << t;
			}
		}
	}
	memset(st, 0, sizeof st);
}
