/*
 * rtl_driver.c -- register-level driver of the falcon-accel core, on any
 * transport (fa_rtl.h). Sequence for one kernel call:
 *   LOGN <- logn; load A (and B) through the burst path or the windows;
 *   OP <- op; CTRL <- START; poll STATUS until DONE (or an error code);
 *   read A back. CYCLES gives the compute cycles of the operation.
 * The Keccak unit (end of file) keeps its state between calls: clear,
 * absorb (XOR words in), permute, squeeze (read words), and the whole
 * permutation of a 25-lane state on top of them.
 */
#include <string.h>

#include "fa_rtl.h"
#include "fa_rtl_regs.h"

#define POLL_LIMIT 1000000u

static int wr(fa_rtl_transport *t, uint32_t off, uint32_t v)
{
	return t->wr(t->ctx, off, v);
}

static int rd(fa_rtl_transport *t, uint32_t off, uint32_t *v)
{
	return t->rd(t->ctx, off, v);
}

/* 1 when CONFIG has the bits of mask set (a unit built in); 0 on a bus
   error. */
static int config_has(fa_rtl_transport *t, uint32_t mask)
{
	uint32_t cfg = 0;

	if (rd(t, FA_RTL_REG_CONFIG, &cfg) != 0) {
		return 0;
	}
	return (cfg & mask) == mask;
}

static uint32_t win_base(unsigned win)
{
	switch (win) {
	case FA_RTL_TARGET_FFT_A: return FA_RTL_WIN_FFT_A;
	case FA_RTL_TARGET_FFT_B: return FA_RTL_WIN_FFT_B;
	case FA_RTL_TARGET_NTT_A: return FA_RTL_WIN_NTT_A;
	case FA_RTL_TARGET_KECCAK: return FA_RTL_WIN_KECCAK;
	case FA_RTL_TARGET_KEM:   return FA_RTL_WIN_KEM;
	default:                  return FA_RTL_WIN_NTT_B;
	}
}

/* n words to window `win` (enum FA_RTL_TARGET_*), burst path if available. */
static int put_words(fa_rtl_transport *t, unsigned win, const uint32_t *w,
	size_t n)
{
	size_t i;
	uint32_t base;

	if (t->burst_wr != NULL) {
		return t->burst_wr(t->ctx, win, w, n);
	}
	base = win_base(win);
	for (i = 0; i < n; i ++) {
		if (wr(t, base + 4u * (uint32_t)i, w[i]) != 0) {
			return -1;
		}
	}
	return 0;
}

static int get_words(fa_rtl_transport *t, unsigned win, uint32_t *w,
	size_t n)
{
	size_t i;
	uint32_t base;

	if (t->burst_rd != NULL) {
		return t->burst_rd(t->ctx, win, w, n);
	}
	base = win_base(win);
	for (i = 0; i < n; i ++) {
		if (rd(t, base + 4u * (uint32_t)i, &w[i]) != 0) {
			return -1;
		}
	}
	return 0;
}

int fa_rtl_drv_start(fa_rtl_transport *t, unsigned op, unsigned logn,
	uint32_t *cycles)
{
	uint32_t st = 0, k;

	(void)logn;
	if (wr(t, FA_RTL_REG_OP, op) != 0
		|| wr(t, FA_RTL_REG_CTRL, FA_RTL_CTRL_START_MASK) != 0)
	{
		return -1;
	}
	for (k = 0; k < POLL_LIMIT; k ++) {
		if (rd(t, FA_RTL_REG_STATUS, &st) != 0) {
			return -1;
		}
		if (st & FA_RTL_STATUS_DONE_MASK) {
			break;
		}
		if (!(st & FA_RTL_STATUS_BUSY_MASK)) {
			/* refused: the error code says why */
			return (int)((st & FA_RTL_STATUS_ERR_MASK)
				>> FA_RTL_STATUS_ERR_LSB);
		}
	}
	if (k == POLL_LIMIT) {
		return -1;
	}
	if (cycles != NULL && rd(t, FA_RTL_REG_CYCLES, cycles) != 0) {
		return -1;
	}
	return 0;
}

/* fpr bit patterns <-> 32-bit words (low word first). On a little-endian
   machine the words are the bytes of the uint64_t values: operands go to
   the device straight from the caller's array (fpr_words) and results
   come back with one memcpy (on the SoC ~1.3 cycles a word; the loops
   below cost it ~5). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static void words_to_fpr(uint64_t *a, const uint32_t *w, size_t n)
{
	memcpy(a, w, n * sizeof *a);
}

/* The words of n fpr for the device: on a little-endian machine the
   caller's array itself (no staging copy; the transport reads it only
   during the call), else converted into w. */
static const uint32_t *fpr_words(uint32_t *w, const uint64_t *a, size_t n)
{
	(void)w;
	(void)n;
	return (const uint32_t *)(const void *)a;
}
#define FPR_WORDS_IN_PLACE 1
#else
static void fpr_to_words(uint32_t *w, const uint64_t *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i ++) {
		w[2 * i] = (uint32_t)a[i];
		w[2 * i + 1] = (uint32_t)(a[i] >> 32);
	}
}

static void words_to_fpr(uint64_t *a, const uint32_t *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i ++) {
		a[i] = (uint64_t)w[2 * i] | ((uint64_t)w[2 * i + 1] << 32);
	}
}

static const uint32_t *fpr_words(uint32_t *w, const uint64_t *a, size_t n)
{
	fpr_to_words(w, a, n);
	return w;
}
#define FPR_WORDS_IN_PLACE 0
#endif

static uint64_t now(fa_rtl_transport *t)
{
	return t->cycles != NULL ? t->cycles(t->ctx) : 0;
}

static void account(fa_rtl_kstat *st, unsigned logn, uint32_t cyc,
	uint64_t t0, uint64_t t1)
{
	if (st == NULL) {
		return;
	}
	st->calls ++;
	st->cycles += cyc;
	st->cycles_with_transfer += t1 - t0;
	st->last_logn = logn;
	st->last_cycles = cyc;
	st->last_cycles_with_transfer = (uint32_t)(t1 - t0);
}

int fa_rtl_drv_fpr_op(fa_rtl_transport *t, unsigned op, uint64_t *a,
	const uint64_t *b, uint64_t c, unsigned logn, fa_rtl_kstat *st)
{
	uint32_t w[2048], cyc = 0;
	size_t n = (size_t)1 << logn;
	uint64_t t0;
	int r;

	t0 = now(t);
	if (wr(t, FA_RTL_REG_LOGN, logn) != 0) {
		return -1;
	}
	if (op == FA_RTL_OP_VMULCONST
		&& (wr(t, FA_RTL_REG_CONST_LO, (uint32_t)c) != 0
		|| wr(t, FA_RTL_REG_CONST_HI, (uint32_t)(c >> 32)) != 0))
	{
		return -1;
	}
	/* operands straight from the caller's arrays where the byte order
	   allows; the result lands in w and reaches a only once it is read
	   back whole (a failed call leaves a untouched) */
	if (put_words(t, FA_RTL_TARGET_FFT_A, fpr_words(w, a, n), 2 * n) != 0) {
		return -1;
	}
	if (b != NULL
		&& put_words(t, FA_RTL_TARGET_FFT_B, fpr_words(w, b, n), 2 * n)
		!= 0)
	{
		return -1;
	}
	r = fa_rtl_drv_start(t, op, logn, &cyc);
	if (r != 0) {
		return r;
	}
	if (get_words(t, FA_RTL_TARGET_FFT_A, w, 2 * n) != 0) {
		return -1;
	}
	words_to_fpr(a, w, n);
	account(st, logn, cyc, t0, now(t));
	return 0;
}

/* n values mod q to / from an NTT window (one 32-bit word each). */
static int put_mq(fa_rtl_transport *t, uint32_t target, const uint16_t *a,
	size_t n)
{
	uint32_t w[1024];
	size_t i;

	for (i = 0; i < n; i ++) {
		w[i] = a[i];
	}
	return put_words(t, target, w, n);
}

static int get_mq(fa_rtl_transport *t, uint32_t target, uint16_t *a,
	size_t n)
{
	uint32_t w[1024];
	size_t i;

	if (get_words(t, target, w, n) != 0) {
		return -1;
	}
	for (i = 0; i < n; i ++) {
		a[i] = (uint16_t)w[i];
	}
	return 0;
}

int fa_rtl_drv_mq_op(fa_rtl_transport *t, unsigned op, uint16_t *a,
	const uint16_t *b, unsigned logn, fa_rtl_kstat *st)
{
	uint32_t cyc = 0;
	size_t n = (size_t)1 << logn;
	uint64_t t0;
	int r;

	t0 = now(t);
	if (wr(t, FA_RTL_REG_LOGN, logn) != 0
		|| put_mq(t, FA_RTL_TARGET_NTT_A, a, n) != 0
		|| (b != NULL && put_mq(t, FA_RTL_TARGET_NTT_B, b, n) != 0))
	{
		return -1;
	}
	r = fa_rtl_drv_start(t, op, logn, &cyc);
	if (r != 0) {
		return r;
	}
	if (get_mq(t, FA_RTL_TARGET_NTT_A, a, n) != 0) {
		return -1;
	}
	account(st, logn, cyc, t0, now(t));
	return 0;
}

/* a = iNTT(NTT(a) o b) with a resident in NTT_A between the three ops:
   B is loaded after the forward NTT (the transforms use NTT_B as
   scratch). The three compute times add up in st. */
int fa_rtl_drv_mq_mul_by_ntt(fa_rtl_transport *t, uint16_t *a,
	const uint16_t *b, unsigned logn, fa_rtl_kstat *st)
{
	static const unsigned ops[3] = {
		FA_RTL_OP_NTT, FA_RTL_OP_NTT_MUL, FA_RTL_OP_INTT
	};
	uint32_t cyc = 0, c;
	size_t n = (size_t)1 << logn;
	uint64_t t0;
	unsigned s;
	int r;

	t0 = now(t);
	if (wr(t, FA_RTL_REG_LOGN, logn) != 0
		|| put_mq(t, FA_RTL_TARGET_NTT_A, a, n) != 0)
	{
		return -1;
	}
	for (s = 0; s < 3; s ++) {
		if (s == 1 && put_mq(t, FA_RTL_TARGET_NTT_B, b, n) != 0) {
			return -1;
		}
		c = 0;
		r = fa_rtl_drv_start(t, ops[s], logn, &c);
		if (r != 0) {
			return r;
		}
		cyc += c;
	}
	if (get_mq(t, FA_RTL_TARGET_NTT_A, a, n) != 0) {
		return -1;
	}
	account(st, logn, cyc, t0, now(t));
	return 0;
}

/* 64-bit value to a LO/HI register pair (LO at off, HI at off + 4). */
static int wr64(fa_rtl_transport *t, uint32_t off, uint64_t v)
{
	if (wr(t, off, (uint32_t)v) != 0 || wr(t, off + 4u, (uint32_t)(v >> 32)) != 0) {
		return -1;
	}
	return 0;
}

/* The SamplerZ unit's outcome after DONE: -1 on a bus error, else the
   SZ_RESULT.ERR code (0 = success). */
static int sz_result(fa_rtl_transport *t, uint32_t *res)
{
	if (rd(t, FA_RTL_REG_SZ_RESULT, res) != 0) {
		return -1;
	}
	return (int)((*res & FA_RTL_SZ_RESULT_ERR_MASK) >> FA_RTL_SZ_RESULT_ERR_LSB);
}

int fa_rtl_drv_sz_load(fa_rtl_transport *t, const uint8_t key[48],
	uint64_t ctr, unsigned ptr, fa_rtl_kstat *st)
{
	uint32_t cyc = 0, res = 0;
	uint64_t t0 = now(t);
	unsigned k;
	int r;

	if (ptr > 511) {
		return -1;
	}
	for (k = 0; k < 12; k ++) {
		uint32_t w = (uint32_t)key[4 * k] | ((uint32_t)key[4 * k + 1] << 8)
			| ((uint32_t)key[4 * k + 2] << 16)
			| ((uint32_t)key[4 * k + 3] << 24);
		if (wr(t, FA_RTL_REG_SZ_KEY0 + 4u * k, w) != 0) {
			return -1;
		}
	}
	if (wr64(t, FA_RTL_REG_SZ_CTR_LO, ctr) != 0
		|| wr(t, FA_RTL_REG_SZ_PTR, ptr) != 0)
	{
		return -1;
	}
	r = fa_rtl_drv_start(t, FA_RTL_OP_SZ_LOAD, 0, &cyc);
	if (r != 0) {
		return r;
	}
	r = sz_result(t, &res);
	if (r != 0) {
		return r < 0 ? r : -r;
	}
	account(st, 0, cyc, t0, now(t));
	return 0;
}

int fa_rtl_drv_samplerz(fa_rtl_transport *t, uint64_t mu, uint64_t isigma,
	uint64_t sigma_min, int *z, uint64_t *ctr, unsigned *ptr,
	fa_rtl_kstat *st)
{
	uint32_t cyc = 0, res = 0, v, lo, hi, p;
	uint64_t t0 = now(t);
	int r;

	if (wr64(t, FA_RTL_REG_SZ_MU_LO, mu) != 0
		|| wr64(t, FA_RTL_REG_SZ_ISIGMA_LO, isigma) != 0
		|| wr64(t, FA_RTL_REG_SZ_SMIN_LO, sigma_min) != 0)
	{
		return -1;
	}
	r = fa_rtl_drv_start(t, FA_RTL_OP_SAMPLERZ, 0, &cyc);
	if (r != 0) {
		return r;
	}
	r = sz_result(t, &res);
	if (r != 0) {
		return r < 0 ? r : -r;
	}
	if (rd(t, FA_RTL_REG_SZ_Z, &v) != 0
		|| rd(t, FA_RTL_REG_SZ_STATE_CTR_LO, &lo) != 0
		|| rd(t, FA_RTL_REG_SZ_STATE_CTR_HI, &hi) != 0
		|| rd(t, FA_RTL_REG_SZ_STATE_PTR, &p) != 0)
	{
		return -1;
	}
	*z = (int)(int32_t)v;
	*ptr = p;
	*ctr = (uint64_t)lo | ((uint64_t)hi << 32);
	account(st, 0, cyc, t0, now(t));
	return 0;
}

/* ------------------------------------------------------------------ */
/* Keccak unit (CONFIG.KECCAK; hw/keccak). The state stays in the device
   between calls; word w of it is sponge bytes 4w..4w+3, little-endian. */

int fa_rtl_drv_keccak_present(fa_rtl_transport *t)
{
	return config_has(t, FA_RTL_CONFIG_KECCAK_MASK);
}

int fa_rtl_drv_keccak_clear(fa_rtl_transport *t)
{
	return fa_rtl_drv_start(t, FA_RTL_OP_KECCAK_CLEAR, 0, NULL);
}

int fa_rtl_drv_keccak_absorb(fa_rtl_transport *t, const uint32_t *w, size_t n)
{
	if (n > FA_RTL_KECCAK_WORDS) {
		return -1;
	}
	return put_words(t, FA_RTL_TARGET_KECCAK, w, n);
}

int fa_rtl_drv_keccak_squeeze(fa_rtl_transport *t, uint32_t *w, size_t n)
{
	if (n > FA_RTL_KECCAK_WORDS) {
		return -1;
	}
	return get_words(t, FA_RTL_TARGET_KECCAK, w, n);
}

int fa_rtl_drv_keccak_permute(fa_rtl_transport *t, fa_rtl_kstat *st)
{
	uint32_t cyc = 0;
	uint64_t t0 = now(t);
	int r = fa_rtl_drv_start(t, FA_RTL_OP_KECCAK_PERMUTE, 0, &cyc);

	if (r == 0) {
		account(st, 0, cyc, t0, now(t));
	}
	return r;
}

int fa_rtl_drv_keccak_f1600(fa_rtl_transport *t, uint64_t *a,
	fa_rtl_kstat *st)
{
	uint32_t w[FA_RTL_KECCAK_WORDS], cyc = 0;
	uint64_t t0 = now(t);
	size_t i;
	int r;

	for (i = 0; i < 25; i ++) {
		w[2 * i] = (uint32_t)a[i];
		w[2 * i + 1] = (uint32_t)(a[i] >> 32);
	}
	r = fa_rtl_drv_keccak_clear(t);
	if (r != 0) {
		return r;
	}
	if (put_words(t, FA_RTL_TARGET_KECCAK, w, FA_RTL_KECCAK_WORDS) != 0) {
		return -1;
	}
	r = fa_rtl_drv_start(t, FA_RTL_OP_KECCAK_PERMUTE, 0, &cyc);
	if (r != 0) {
		return r;
	}
	if (get_words(t, FA_RTL_TARGET_KECCAK, w, FA_RTL_KECCAK_WORDS) != 0) {
		return -1;
	}
	for (i = 0; i < 25; i ++) {
		a[i] = (uint64_t)w[2 * i] | ((uint64_t)w[2 * i + 1] << 32);
	}
	account(st, 0, cyc, t0, now(t));
	return 0;
}

/* ------------------------------------------------------------------ */
/* ffSampling engine (CONFIG.FFSAMP; hw/ffsamp): the tree and the work
   memory through the burst path only, 64-bit words as two 32-bit words
   (low first); STREAM.START in bits 16..30 of the burst target. */

#define FS_CHUNK 1024u     /* fpr per burst (w[] below) */

int fa_rtl_drv_fs_present(fa_rtl_transport *t)
{
	return config_has(t, FA_RTL_CONFIG_FFSAMP_MASK);
}

int fa_rtl_drv_fs_tree(fa_rtl_transport *t, const uint64_t *tree,
	unsigned logn, fa_rtl_kstat *st)
{
	uint32_t w[2 * FS_CHUNK], v = 0;
	size_t size, off, m;
	uint64_t t0 = now(t);

	if (t->burst_wr == NULL || logn < 1 || logn > 10) {
		return -1;
	}
	size = ((size_t)logn + 1) << logn;
	/* bursts of FS_CHUNK fpr, straight from the caller's array where the
	   byte order allows */
	for (off = 0; off < size; off += m) {
		m = size - off < FS_CHUNK ? size - off : FS_CHUNK;
		if (t->burst_wr(t->ctx, FA_RTL_TARGET_FS_TREE
			| ((uint32_t)(2 * off) << FA_RTL_STREAM_START_LSB),
			fpr_words(w, tree + off, m), 2 * m) != 0)
		{
			return -1;
		}
	}
	if (wr(t, FA_RTL_REG_FS_TREE, logn) != 0
		|| rd(t, FA_RTL_REG_FS_TREE, &v) != 0)
	{
		return -1;
	}
	if (!(v & FA_RTL_FS_TREE_OK_MASK)
		|| ((v & FA_RTL_FS_TREE_LOGN_MASK) >> FA_RTL_FS_TREE_LOGN_LSB) != logn)
	{
		return -1;
	}
	account(st, logn, 0, t0, now(t));
	return 0;
}

int fa_rtl_drv_ffsampling(fa_rtl_transport *t, const uint64_t *t0,
	const uint64_t *t1, uint64_t *z0, uint64_t *z1, unsigned logn,
	uint64_t sigma_min, unsigned max_trials, uint32_t wdog, uint64_t *ctr,
	unsigned *ptr, fa_rtl_kstat *st)
{
	uint32_t w[4 * FS_CHUNK], cyc = 0, res = 0, lo, hi, p;
	size_t n = (size_t)1 << logn;
	uint64_t tc = now(t);
	int r;

	if (t->burst_wr == NULL || t->burst_rd == NULL || logn < 1
		|| logn > 10 || max_trials > 255)
	{
		return -1;
	}
	/* t0 at word 0, t1 at word 2n; one burst when they are adjacent */
	if (FPR_WORDS_IN_PLACE && t1 == t0 + n) {
		r = t->burst_wr(t->ctx, FA_RTL_TARGET_FS_WORK, fpr_words(w, t0, n),
			4 * n);
	} else {
		r = t->burst_wr(t->ctx, FA_RTL_TARGET_FS_WORK, fpr_words(w, t0, n),
			2 * n);
		if (r == 0) {
			r = t->burst_wr(t->ctx, FA_RTL_TARGET_FS_WORK
				| ((uint32_t)(2 * n) << FA_RTL_STREAM_START_LSB),
				fpr_words(w, t1, n), 2 * n);
		}
	}
	if (r != 0
		|| wr(t, FA_RTL_REG_LOGN, logn) != 0
		|| wr64(t, FA_RTL_REG_SZ_SMIN_LO, sigma_min) != 0
		|| wr(t, FA_RTL_REG_SZ_MAX_TRIALS, max_trials) != 0
		|| wr(t, FA_RTL_REG_FS_WDOG, wdog) != 0)
	{
		return -1;
	}
	r = fa_rtl_drv_start(t, FA_RTL_OP_FFSAMPLING, logn, &cyc);
	if (r != 0) {
		return r;
	}
	if (rd(t, FA_RTL_REG_FS_RESULT, &res) != 0) {
		return -1;
	}
	r = (int)((res & FA_RTL_FS_RESULT_ERR_MASK) >> FA_RTL_FS_RESULT_ERR_LSB);
	if (r != 0) {
		return -r;
	}
	if ((res & FA_RTL_FS_RESULT_SAMPLES_MASK) >> FA_RTL_FS_RESULT_SAMPLES_LSB
		!= 2 * n)
	{
		return -1;
	}
	/* z0 at fpr 2n, z1 at 3n: words 4n .. 8n; straight into z0 (and z1)
	   when the byte order allows and z1 follows z0 */
	if (FPR_WORDS_IN_PLACE && z1 == z0 + n) {
		if (t->burst_rd(t->ctx, FA_RTL_TARGET_FS_WORK
			| ((uint32_t)(4 * n) << FA_RTL_STREAM_START_LSB),
			(uint32_t *)(void *)z0, 4 * n) != 0)
		{
			return -1;
		}
	} else {
		if (t->burst_rd(t->ctx, FA_RTL_TARGET_FS_WORK
			| ((uint32_t)(4 * n) << FA_RTL_STREAM_START_LSB), w, 4 * n)
			!= 0)
		{
			return -1;
		}
		words_to_fpr(z0, w, n);
		words_to_fpr(z1, w + 2 * n, n);
	}
	if (rd(t, FA_RTL_REG_SZ_STATE_CTR_LO, &lo) != 0
		|| rd(t, FA_RTL_REG_SZ_STATE_CTR_HI, &hi) != 0
		|| rd(t, FA_RTL_REG_SZ_STATE_PTR, &p) != 0)
	{
		return -1;
	}
	*ctr = (uint64_t)lo | ((uint64_t)hi << 32);
	*ptr = p;
	account(st, logn, cyc, tc, now(t));
	return 0;
}

/* The SamplerZ PRNG's current buffer (target SZ_BUF): 128 words, word k
   = buffer bytes 4k..4k+3 little-endian; into buf in place where the byte
   order allows. */
int fa_rtl_drv_sz_buf(fa_rtl_transport *t, uint8_t buf[512], fa_rtl_kstat *st)
{
	uint64_t t0 = now(t);
#if FPR_WORDS_IN_PLACE
	uint32_t *w = (uint32_t *)(void *)buf;
#else
	uint32_t w[128];
	unsigned i;
#endif

	if (t->burst_rd == NULL
		|| t->burst_rd(t->ctx, FA_RTL_TARGET_SZ_BUF, w, 128) != 0)
	{
		return -1;
	}
#if !FPR_WORDS_IN_PLACE
	for (i = 0; i < 128; i ++) {
		buf[4 * i] = (uint8_t)w[i];
		buf[4 * i + 1] = (uint8_t)(w[i] >> 8);
		buf[4 * i + 2] = (uint8_t)(w[i] >> 16);
		buf[4 * i + 3] = (uint8_t)(w[i] >> 24);
	}
#endif
	account(st, 0, 0, t0, now(t));
	return 0;
}

/* ------------------------------------------------------------------ */
/* Expanded-key checksum unit (hw/eksum): the words go through the burst
   path into the lanes; nothing is stored on the device. */

int fa_rtl_drv_eksum_present(fa_rtl_transport *t)
{
	return config_has(t, FA_RTL_CONFIG_EKSUM_MASK);
}

int fa_rtl_drv_eksum_lanes(fa_rtl_transport *t, const uint32_t *w, size_t nw,
	unsigned logn, uint32_t h[8], fa_rtl_kstat *st)
{
	uint32_t v = 0;
	uint64_t t0 = now(t);
	unsigned i, k;

	if (t->burst_wr == NULL || nw == 0 || (nw & 7) != 0
		|| nw > FA_RTL_EKSUM_COUNT_MASK || logn > 15)
	{
		return -1;
	}
	if (wr(t, FA_RTL_REG_EKSUM, logn) != 0
		|| t->burst_wr(t->ctx, FA_RTL_TARGET_EKSUM, w, nw) != 0)
	{
		return -1;
	}
	/* the last words leave the unit's pipeline a few cycles after the
	   stream; COUNT = nw also says that no word was lost */
	for (k = 0; k < 64; k ++) {
		if (rd(t, FA_RTL_REG_EKSUM, &v) != 0) {
			return -1;
		}
		if ((v & FA_RTL_EKSUM_COUNT_MASK) == nw) {
			break;
		}
	}
	if ((v & FA_RTL_EKSUM_COUNT_MASK) != nw) {
		return -1;
	}
	for (i = 0; i < 8; i ++) {
		if (rd(t, FA_RTL_REG_EKSUM_H0 + 4u * i, &h[i]) != 0) {
			return -1;
		}
	}
	account(st, logn, 0, t0, now(t));
	return 0;
}

int fa_rtl_drv_fs_sz_cycles(fa_rtl_transport *t, uint32_t *cycles)
{
	return rd(t, FA_RTL_REG_FS_SZ_CYCLES, cycles) != 0 ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* ML-KEM mode of the NTT unit (CONFIG.MLKEM; hw/ntt kem_engine). One
   polynomial of 256 coefficients is 128 pair words {f[2i+1], f[2i]}
   (bits [23:12], [11:0]) in [0, q-1]: target / window KEM, A in words
   0..127, B in words 128..255 (one burst carries both). The device works
   on canonical values; the driver reduces the int16 inputs (Barrett, any
   int16) and centres the outputs, so the results are exactly the seam
   slots' (src/kernels.h: centred representatives), with no
   data-dependent branch or index on either side. */

#define KEM_Q 3329

/* x mod q in [0, q-1] for any int16 x: Barrett with round(2^26 / q) =
   20159 gives the centred representative, then q is added to a negative
   one. */
static uint32_t kem_canon(int16_t x)
{
	int32_t t = ((int32_t)20159 * x + (1 << 25)) >> 26;
	int32_t r = (int32_t)x - t * KEM_Q;

	r += KEM_Q & -(int32_t)((uint32_t)r >> 31);
	return (uint32_t)r;
}

/* v in [0, q-1] -> the centred representative in [-(q-1)/2, (q-1)/2]. */
static int16_t kem_centre(uint32_t v)
{
	int32_t x = (int32_t)v;

	x -= KEM_Q & -(int32_t)((uint32_t)((KEM_Q - 1) / 2 - x) >> 31);
	return (int16_t)x;
}

static void kem_pack(uint32_t *w, const int16_t *a)
{
	size_t i;

	for (i = 0; i < 128; i ++) {
		w[i] = kem_canon(a[2 * i]) | (kem_canon(a[2 * i + 1]) << 12);
	}
}

int fa_rtl_drv_kem_present(fa_rtl_transport *t)
{
	return config_has(t, FA_RTL_CONFIG_MLKEM_MASK);
}

/* A (and B) in, op, A out as 256 values in [0, q-1] (sum: added to acc
   instead of stored). */
static int kem_run(fa_rtl_transport *t, unsigned op, const int16_t *a,
	const int16_t *b, uint32_t *out, uint32_t *cyc)
{
	uint32_t w[256];
	size_t i;
	int r;

	kem_pack(w, a);
	if (b != NULL) {
		kem_pack(w + 128, b);
	}
	if (put_words(t, FA_RTL_TARGET_KEM, w, b != NULL ? 256 : 128) != 0) {
		return -1;
	}
	r = fa_rtl_drv_start(t, op, 0, cyc);
	if (r != 0) {
		return r;
	}
	if (get_words(t, FA_RTL_TARGET_KEM, w, 128) != 0) {
		return -1;
	}
	for (i = 0; i < 128; i ++) {
		out[2 * i] = w[i] & 0xFFFu;
		out[2 * i + 1] = (w[i] >> 12) & 0xFFFu;
		if (out[2 * i] >= KEM_Q || out[2 * i + 1] >= KEM_Q) {
			return -1;          /* not a canonical value: device fault */
		}
	}
	return 0;
}

static int kem_transform(fa_rtl_transport *t, unsigned op, int16_t *a,
	fa_rtl_kstat *st)
{
	uint32_t v[256], cyc = 0;
	uint64_t t0 = now(t);
	size_t i;
	int r = kem_run(t, op, a, NULL, v, &cyc);

	if (r != 0) {
		return r;
	}
	for (i = 0; i < 256; i ++) {
		a[i] = kem_centre(v[i]);
	}
	account(st, 8, cyc, t0, now(t));
	return 0;
}

int fa_rtl_drv_kem_ntt(fa_rtl_transport *t, int16_t *a, fa_rtl_kstat *st)
{
	return kem_transform(t, FA_RTL_OP_KEM_NTT, a, st);
}

int fa_rtl_drv_kem_invntt(fa_rtl_transport *t, int16_t *a, fa_rtl_kstat *st)
{
	return kem_transform(t, FA_RTL_OP_KEM_INTT_MONT, a, st);
}

int fa_rtl_drv_kem_basemul_acc(fa_rtl_transport *t, int16_t *r,
	const int16_t *a, const int16_t *b, unsigned nk, fa_rtl_kstat *st)
{
	uint32_t acc[256], v[256], cyc = 0, c;
	uint64_t t0 = now(t);
	unsigned j;
	size_t i;
	int e;

	if (nk == 0 || nk > 4) {
		return -1;
	}
	memset(acc, 0, sizeof acc);
	for (j = 0; j < nk; j ++) {
		c = 0;
		e = kem_run(t, FA_RTL_OP_KEM_BASEMUL_MONT, a + 256 * j,
			b + 256 * j, v, &c);
		if (e != 0) {
			return e;
		}
		cyc += c;
		for (i = 0; i < 256; i ++) {
			acc[i] += v[i];             /* < 4q: fits int16 */
		}
	}
	for (i = 0; i < 256; i ++) {
		r[i] = kem_centre(kem_canon((int16_t)acc[i]));
	}
	account(st, 8, cyc, t0, now(t));
	return 0;
}
