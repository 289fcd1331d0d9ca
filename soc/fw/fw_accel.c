/*
 * fw_accel.c -- the kernel tables the firmware runs Falcon with, per
 * request mode (soc/fw/soc_proto.h), and the cycle counters of an operation.
 *
 *   FA_SOC_MODE_FW     the portable kernels: emulated FP on the CPU.
 *   FA_SOC_MODE_ACCEL  FFT/iFFT, NTT/iNTT, the pointwise NTT product and
 *                      the FFT-domain vector ops on falcon_accel_top,
 *                      through the shared register-level driver
 *                      (src/backend_rtl/rtl_driver.c) on an MMIO
 *                      transport: the CPU moves every operand word over
 *                      the bus (one AXI4-Lite transaction per word).
 *   FA_SOC_MODE_DMA    the same kernels; operands move by DMA bursts
 *                      (soc/rtl/soc_dma.sv) instead of CPU stores.
 * In both accelerator modes the keccak_f1600 slot (every SHAKE256
 * permutation of hash-to-point and of the signing PRNG seed) runs on the
 * accelerator's Keccak unit (hw/keccak) when it has one (CONFIG.KECCAK):
 * the 50-word state goes in, is permuted in 24 cycles, comes back.
 * With the SamplerZ unit (CONFIG.SAMPLER, hw/sampler) the samplerz and
 * samplerz_pair slots run on it (registers only: the same in both modes);
 * with the ffSampling engine (CONFIG.FFSAMP, hw/ffsamp) the ffsampling
 * slot runs the whole sampling of a signature as one command. Both go
 * through src/backend_rtl/rtl_sampling.c, the protocol the host rtl
 * backend uses: the device's PRNG loaded from the library's fa_prng when
 * it does not hold it, the fa_prng brought to the device's state after.
 * The engine's tree and work memories have no AXI4-Lite window, only the
 * burst path, so its operands move by DMA in both modes. The tree is
 * uploaded once per expanded key: the firmware remembers which tree
 * buffer (address, logn) the device holds within one operation; every
 * operation starts by forgetting it (fw_stats_begin), so a buffer that
 * is refilled with another key between operations is uploaded again,
 * unless the image keeps it (fw_accel_keep_tree: the FIDO2 key, whose
 * expanded-key cache calls fw_accel_forget_tree before a slot changes).
 * The other slots (LDL, split/merge, ...) stay portable.
 *
 * A failed device call (an error status, or a poll that times out in
 * the driver) leaves the operand untouched and the portable kernel runs
 * instead, so results stay correct; the failure is counted and the
 * request's reply says FA_SOC_ST_ACCEL.
 *
 * Works with either form of the kernel seam: kernels returning
 * FA_KERNEL_DONE / FA_KERNEL_FALLBACK (NULL slots run the portable
 * kernel), or void kernels (the fallback is called here).
 */
#include <stddef.h>
#include <string.h>

#include "fa_rtl.h"
#include "fa_rtl_regs.h"
#include "fw_accel.h"
#include "fw_hal.h"
#include "inner.h"
#include "rtl_sampling.h"
#include "soc_proto.h"

#define ACC(off) (FA_SOC_ACCEL_BASE + (off))
#define DMA(off) (FA_SOC_DMA_BASE + (off))
#define DMA_POLL_LIMIT 100000u
#define DMA_MAX_WORDS 2048u    /* LEN of one DMA transfer */

/* ------------------------------------------------------------------ */
/* Transports */

static int mmio_tr_wr(void *ctx, uint32_t off, uint32_t v)
{
	(void)ctx;
	mmio_wr(ACC(off), v);
	return 0;
}

static int mmio_tr_rd(void *ctx, uint32_t off, uint32_t *v)
{
	(void)ctx;
	*v = mmio_rd(ACC(off));
	return 0;
}

static uint64_t tr_cycles(void *ctx)
{
	(void)ctx;
	return fw_cycles();
}

/* One DMA transfer (ctrl 1: RAM -> window, 2: window -> RAM); target is
   the STREAM register value (window, and STREAM.START for FS_TREE /
   FS_WORK). */
static int dma_one(uint32_t ctrl, uint32_t target, const uint32_t *w,
	size_t n)
{
	uint32_t k, st;

	/* the words to send are in RAM (write-through cache) before the
	   engine starts */
	fw_compiler_barrier();
	mmio_wr(DMA(FA_SOC_DMA_RAM_ADDR), (uint32_t)(uintptr_t)w);
	mmio_wr(DMA(FA_SOC_DMA_TARGET), target);
	mmio_wr(DMA(FA_SOC_DMA_LEN), (uint32_t)n);
	mmio_wr(DMA(FA_SOC_DMA_CTRL), ctrl);
	for (k = 0; k < DMA_POLL_LIMIT; k ++) {
		st = mmio_rd(DMA(FA_SOC_DMA_STATUS));
		if (st & 2u) {
			/* the engine wrote RAM behind the data cache */
			if (ctrl == 2u) {
				fw_dcache_invalidate();
			}
			return (st & 4u) ? -1 : 0;
		}
	}
	return -1;
}

/* A burst of any length: more than DMA_MAX_WORDS words (the ffSampling
   work memory at logn 10) go as several transfers, each starting where
   the last ended (STREAM.START, FS_TREE / FS_WORK only). */
static int dma_xfer(uint32_t ctrl, unsigned target, const uint32_t *w,
	size_t n)
{
	unsigned win = target & FA_RTL_STREAM_TARGET_MASK;
	uint32_t start = (target & FA_RTL_STREAM_START_MASK)
		>> FA_RTL_STREAM_START_LSB;
	size_t off, m;

	if (n > DMA_MAX_WORDS && win != FA_RTL_TARGET_FS_TREE
		&& win != FA_RTL_TARGET_FS_WORK && win != FA_RTL_TARGET_EKSUM)
	{
		return -1;
	}
	for (off = 0; off < n; off += m) {
		m = n - off < DMA_MAX_WORDS ? n - off : DMA_MAX_WORDS;
		if (dma_one(ctrl, win | ((start + (uint32_t)off)
			<< FA_RTL_STREAM_START_LSB), w + off, m) != 0)
		{
			return -1;
		}
	}
	return 0;
}

static int dma_burst_wr(void *ctx, unsigned target, const uint32_t *w,
	size_t n)
{
	(void)ctx;
	return dma_xfer(1, target, w, n);
}

static int dma_burst_rd(void *ctx, unsigned target, uint32_t *w, size_t n)
{
	(void)ctx;
	return dma_xfer(2, target, w, n);
}

static fa_rtl_transport tr_mmio = {
	NULL, mmio_tr_wr, mmio_tr_rd, NULL, NULL, tr_cycles, "mmio"
};
static fa_rtl_transport tr_dma = {
	NULL, mmio_tr_wr, mmio_tr_rd, dma_burst_wr, dma_burst_rd, tr_cycles,
	"mmio+dma"
};

/* The transport of the operation in progress. */
static fa_rtl_transport *cur_tr;

/* ------------------------------------------------------------------ */
/* Statistics */

static uint32_t bus0, dma0;
static fw_stats cur;
static fa_rtl_kstat kstats[FA_RTL_K_COUNT];

const fa_rtl_kstat *fw_kstats(void)
{
	return kstats;
}

static struct {
	int valid;
	const fpr *tree;
	unsigned logn;
} fs_tree;

static int fs_tree_keep;

void fw_accel_keep_tree(int keep)
{
	fs_tree_keep = keep;
}

void fw_accel_forget_tree(void)
{
	fs_tree.valid = 0;
}

void fw_stats_begin(void)
{
	if (!fs_tree_keep) {
		fs_tree.valid = 0;
	}
	memset(&cur, 0, sizeof cur);
	memset(kstats, 0, sizeof kstats);

	memset(kstats, 0, sizeof kstats);
	bus0 = mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_ACC_BUS_CYCLES);
	dma0 = mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_DMA_CYCLES);
}

void fw_stats_end(fw_stats *s)
{
	unsigned i;

	*s = cur;
	for (i = 0; i < FA_RTL_K_COUNT; i ++) {
		s->acc_compute += (uint32_t)kstats[i].cycles;
		s->kcalls += (uint32_t)kstats[i].calls;
	}
	s->acc_bus = mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_ACC_BUS_CYCLES) - bus0;
	s->dma = mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_DMA_CYCLES) - dma0;
}

/* ------------------------------------------------------------------ */
/* Kernels */

/* 0: done on the device; -1: failed (operand untouched). */
static int fpr_dev(unsigned kid, unsigned op, fpr *a, const fpr *b, fpr c,
	unsigned logn)
{
	if (fa_rtl_drv_fpr_op(cur_tr, op, (uint64_t *)a, (const uint64_t *)b,
		fpr_bits(c), logn, &kstats[kid]) != 0)
	{
		cur.error = 1;
		return -1;
	}
	return 0;
}

static int mq_dev(unsigned kid, unsigned op, uint16_t *a, const uint16_t *b,
	unsigned logn)
{
	if (fa_rtl_drv_mq_op(cur_tr, op, a, b, logn, &kstats[kid]) != 0) {
		cur.error = 1;
		return -1;
	}
	return 0;
}

#ifdef FA_KERNEL_DONE
/* the seam's dispatcher runs the portable kernel on FA_KERNEL_FALLBACK */
#define K_RET int
#define K_END(r, portable_call) \
	return (r) == 0 ? FA_KERNEL_DONE : FA_KERNEL_FALLBACK
#else
#define K_RET void
#define K_END(r, portable_call) \
	do { if ((r) != 0) { portable_call; } } while (0)
#endif

#define FW_FPR_UNARY(fn, kid, op, portable) \
	static K_RET fn(fpr *a, unsigned logn) \
	{ \
		int r = fpr_dev(kid, op, a, NULL, FPR_ZERO, logn); \
		K_END(r, portable(a, logn)); \
	}
#define FW_FPR_BINARY(fn, kid, op, portable) \
	static K_RET fn(fpr *a, const fpr *b, unsigned logn) \
	{ \
		int r = fpr_dev(kid, op, a, b, FPR_ZERO, logn); \
		K_END(r, portable(a, b, logn)); \
	}

FW_FPR_UNARY(acc_fft, FA_RTL_K_FFT, FA_RTL_OP_FFT, fa_fft_portable)
FW_FPR_UNARY(acc_ifft, FA_RTL_K_IFFT, FA_RTL_OP_IFFT, fa_ifft_portable)
FW_FPR_UNARY(acc_neg, FA_RTL_K_NEG, FA_RTL_OP_VNEG, fa_poly_neg_portable)
FW_FPR_UNARY(acc_adj, FA_RTL_K_ADJ, FA_RTL_OP_VADJ, fa_poly_adj_fft_portable)
FW_FPR_UNARY(acc_mulselfadj, FA_RTL_K_MULSELFADJ, FA_RTL_OP_VMULSELFADJ,
	fa_poly_mulselfadj_fft_portable)
FW_FPR_BINARY(acc_add, FA_RTL_K_ADD, FA_RTL_OP_VADD, fa_poly_add_portable)
FW_FPR_BINARY(acc_sub, FA_RTL_K_SUB, FA_RTL_OP_VSUB, fa_poly_sub_portable)
FW_FPR_BINARY(acc_mul, FA_RTL_K_MUL, FA_RTL_OP_VMUL, fa_poly_mul_fft_portable)
FW_FPR_BINARY(acc_muladj, FA_RTL_K_MULADJ, FA_RTL_OP_VMULADJ,
	fa_poly_muladj_fft_portable)

static K_RET acc_mulconst(fpr *a, fpr x, unsigned logn)
{
	int r = fpr_dev(FA_RTL_K_MULCONST, FA_RTL_OP_VMULCONST, a, NULL, x, logn);

	K_END(r, fa_poly_mulconst_portable(a, x, logn));
}

static K_RET acc_ntt(uint16_t *a, unsigned logn)
{
	int r = mq_dev(FA_RTL_K_NTT, FA_RTL_OP_NTT, a, NULL, logn);

	K_END(r, fa_mq_ntt_portable(a, logn));
}

static K_RET acc_intt(uint16_t *a, unsigned logn)
{
	int r = mq_dev(FA_RTL_K_INTT, FA_RTL_OP_INTT, a, NULL, logn);

	K_END(r, fa_mq_intt_portable(a, logn));
}

static K_RET acc_ntt_mul(uint16_t *a, const uint16_t *b, unsigned logn)
{
	int r = mq_dev(FA_RTL_K_NTT_MUL, FA_RTL_OP_NTT_MUL, a, b, logn);

	K_END(r, fa_mq_poly_mul_ntt_portable(a, b, logn));
}

static int have_keccak;   /* CONFIG.KECCAK of the accelerator */

static K_RET acc_keccak(uint64_t *st)
{
	int r = -1;

	if (have_keccak) {
		r = fa_rtl_drv_keccak_f1600(cur_tr, st, &kstats[FA_RTL_K_KECCAK]);
		if (r != 0) {
			cur.error = 1;
		}
	}
	K_END(r, fa_keccak_f1600_portable(st));
}

/* The version-2 expanded-key checksum (the check before every signature)
   on the checksum unit (hw/eksum): the body goes through the lanes by DMA
   (dma mode only: without a burst path the words would cost one bus write
   each, more than the loop on the core) and the library folds them. */
static int have_eksum;    /* CONFIG.EKSUM of the accelerator */

static K_RET acc_ek_checksum32(uint32_t *c, const uint32_t *w, size_t nw,
	unsigned logn)
{
	uint32_t h[8];
	int r = -1;

	if (have_eksum && cur_tr->burst_wr != NULL && nw != 0
		&& (nw & 7) == 0)
	{
		r = fa_rtl_drv_eksum_lanes(cur_tr, w, nw, logn, h,
			&kstats[FA_RTL_K_EKSUM]);
		if (r != 0) {
			cur.error = 1;
		} else {
			*c = fa_ek_checksum32_fold(h, nw);
		}
	}
	K_END(r, fa_ek_checksum32_portable(c, w, nw, logn));
}

/* SamplerZ and ffSampling (rtl_sampling.c). prng: which fa_prng state
   the device's PRNG holds. */
static int have_sampler, have_ffsamp;
static fa_rtl_prng_mirror prng;
static fa_rtl_sampling_stats sstats = {
	&kstats[FA_RTL_K_SAMPLERZ], &kstats[FA_RTL_K_SZ_LOAD],
	&kstats[FA_RTL_K_FFSAMPLING]
};

static K_RET acc_samplerz(fa_sampler_ctx *ctx, int *z, fpr mu, fpr isigma)
{
	int r = -1;

	if (have_sampler && ctx->p.ptr < sizeof ctx->p.buf) {
		r = fa_rtl_samplerz_ctx(cur_tr, &prng, &sstats, ctx, z, mu,
			isigma);
		if (r != 0) {
			cur.error = 1;
		}
	}
	K_END(r, fa_samplerz_portable(ctx, z, mu, isigma));
}

static K_RET acc_samplerz_pair(fa_sampler_ctx *ctx, int *z, fpr mu0,
	fpr mu1, fpr isigma)
{
	int r = -1;

	if (have_sampler && ctx->p.ptr < sizeof ctx->p.buf) {
		r = fa_rtl_samplerz_pair_ctx(cur_tr, &prng, &sstats, ctx, z,
			mu0, mu1, isigma);
		if (r != 0) {
			cur.error = 1;
		}
	}
	K_END(r, fa_samplerz_pair_portable(ctx, z, mu0, mu1, isigma));
}

/* The sampler PRNG's refill (sign.c's seed) on the device's ChaCha20,
   the buffer read back by DMA (dma mode only); the device then holds the
   state, so the ffSampling call that follows needs no SZ_LOAD. */
static K_RET acc_prng_refill(fa_prng *p)
{
	int r = -1;

	if (have_sampler && cur_tr->burst_rd != NULL) {
		r = fa_rtl_prng_refill(cur_tr, &prng, &sstats, p);
		if (r != 0) {
			cur.error = 1;
		}
	}
	K_END(r, fa_prng_refill_portable(p));
}

/* The engine's watchdog: far above a signature's cycles (~0.5 M at logn 9,
   twice that at 10), far below the host's timeout. */
#define FS_WDOG 50000000u

/* t0 || t1 go to the device from where they are when t1 follows t0 (as
   in sign_tree), else through tv; z0, z1 land in tmp (2n fpr of the
   slot's scratch) and are copied out once known good (z0, z1 untouched
   on a failure, as the seam asks of a declining kernel). */
static K_RET acc_ffsampling(fa_sampler_ctx *ctx, fpr *z0, fpr *z1,
	const fpr *tree, const fpr *t0, const fpr *t1, unsigned logn,
	fpr *tmp)
{
	static uint64_t tv[2048];
	size_t n = (size_t)1 << logn;
	int r = -1;

	if (have_ffsamp && logn >= 1 && logn <= 10
		&& ctx->p.ptr < sizeof ctx->p.buf)
	{
		r = 0;
		if (!fs_tree.valid || fs_tree.tree != tree
			|| fs_tree.logn != logn)
		{
			fs_tree.valid = 0;
			r = fa_rtl_drv_fs_tree(&tr_dma, (const uint64_t *)tree,
				logn, &kstats[FA_RTL_K_FS_TREE]);
			if (r == 0) {
				fs_tree.valid = 1;
				fs_tree.tree = tree;
				fs_tree.logn = logn;
			}
		}
		if (r == 0) {
			const uint64_t *tin = (const uint64_t *)t0;

			if (t1 != t0 + n) {
				memcpy(tv, t0, n * sizeof(fpr));
				memcpy(tv + n, t1, n * sizeof(fpr));
				tin = tv;
			}
			r = fa_rtl_ffsampling_ctx(&tr_dma, &prng, &sstats, ctx,
				tin, (uint64_t *)tmp, logn, FS_WDOG);
			if (r == 0) {
				memcpy(z0, tmp, n * sizeof(fpr));
				memcpy(z1, tmp + n, n * sizeof(fpr));
			}
		}
		if (r != 0) {
			/* after a device error the tree is uploaded again */
			fs_tree.valid = 0;
			cur.error = 1;
		}
	}
	K_END(r, fa_ffsampling_portable(ctx, z0, z1, tree, t0, t1, logn, tmp));
}

/* ML-KEM (CONFIG.MLKEM; hw/ntt kem_engine): the NTT, inverse NTT and
   base multiplication slots on the accelerator's q = 3329 mode, and the
   four-sponge runner's keccak_x4 slot as four permutations on the Keccak
   unit (the states go in and come back one after the other; all four or
   none are written). The other ML-KEM slots (sampling, encodings) and the
   single-sponge SHA3 calls (mlkem_sha3.c) stay on the CPU. */
static int have_mlkem;

static K_RET acc_kem_ntt(int16_t *a)
{
	int r = -1;

	if (have_mlkem) {
		r = fa_rtl_drv_kem_ntt(cur_tr, a, &kstats[FA_RTL_K_MLKEM_NTT]);
		if (r != 0) {
			cur.error = 1;
		}
	}
	K_END(r, fa_mlkem_ntt_portable(a));
}

static K_RET acc_kem_invntt(int16_t *a)
{
	int r = -1;

	if (have_mlkem) {
		r = fa_rtl_drv_kem_invntt(cur_tr, a, &kstats[FA_RTL_K_MLKEM_INVNTT]);
		if (r != 0) {
			cur.error = 1;
		}
	}
	K_END(r, fa_mlkem_invntt_portable(a));
}

static K_RET acc_kem_basemul_acc(int16_t *r, const int16_t *a,
	const int16_t *b, unsigned nk)
{
	int e = -1;

	if (have_mlkem) {
		e = fa_rtl_drv_kem_basemul_acc(cur_tr, r, a, b, nk,
			&kstats[FA_RTL_K_MLKEM_BASEMUL]);
		if (e != 0) {
			cur.error = 1;
		}
	}
	K_END(e, fa_mlkem_basemul_acc_portable(r, a, b, nk));
}

static K_RET acc_keccak_x4(uint64_t *st)
{
	uint64_t s[4][25];
	unsigned t, i;
	int r = have_keccak ? 0 : -1;

	for (t = 0; t < 4 && r == 0; t ++) {
		for (i = 0; i < 25; i ++) {
			s[t][i] = st[4 * i + t];
		}
		r = fa_rtl_drv_keccak_f1600(cur_tr, s[t], &kstats[FA_RTL_K_KECCAK]);
	}
	if (r == 0) {
		for (t = 0; t < 4; t ++) {
			for (i = 0; i < 25; i ++) {
				st[4 * i + t] = s[t][i];
			}
		}
	} else if (have_keccak) {
		cur.error = 1;
	}
	K_END(r, fa_keccak_x4_portable(st));
}

static int always(void)
{
	return 1;
}

static struct fa_kernels tab_accel;
static int tab_state;    /* 0 unset, 1 ready, -1 no accelerator */

static int accel_init(void)
{
	if (tab_state == 0) {
		tab_state = mmio_rd(ACC(FA_RTL_REG_ID)) == FA_RTL_ID_VALUE ? 1 : -1;
		tab_accel = fa_backend_portable;
		tab_accel.name = "soc-accel";
		tab_accel.available = always;
		tab_accel.simulated = 0;
		tab_accel.fft = acc_fft;
		tab_accel.ifft = acc_ifft;
		tab_accel.poly_add = acc_add;
		tab_accel.poly_sub = acc_sub;
		tab_accel.poly_neg = acc_neg;
		tab_accel.poly_adj_fft = acc_adj;
		tab_accel.poly_mul_fft = acc_mul;
		tab_accel.poly_muladj_fft = acc_muladj;
		tab_accel.poly_mulselfadj_fft = acc_mulselfadj;
		tab_accel.poly_mulconst = acc_mulconst;
		tab_accel.mq_ntt = acc_ntt;
		tab_accel.mq_intt = acc_intt;
		tab_accel.mq_poly_mul_ntt = acc_ntt_mul;
		if (tab_state == 1) {
			/* the optional units, from one CONFIG read */
			uint32_t cfg = mmio_rd(ACC(FA_RTL_REG_CONFIG));

			have_keccak = (cfg & FA_RTL_CONFIG_KECCAK_MASK) != 0;
			tab_accel.keccak_f1600 = acc_keccak;
			have_eksum = (cfg & FA_RTL_CONFIG_EKSUM_MASK) != 0;
			tab_accel.ek_checksum32 = acc_ek_checksum32;
			have_mlkem = (cfg & FA_RTL_CONFIG_MLKEM_MASK) != 0;
			tab_accel.mlkem_ntt = acc_kem_ntt;
			tab_accel.mlkem_invntt = acc_kem_invntt;
			tab_accel.mlkem_basemul_acc = acc_kem_basemul_acc;
			tab_accel.keccak_x4 = acc_keccak_x4;
			have_sampler = (cfg & FA_RTL_CONFIG_SAMPLER_MASK) != 0;
			have_ffsamp = have_sampler
				&& (cfg & FA_RTL_CONFIG_FFSAMP_MASK) != 0;
			tab_accel.samplerz = acc_samplerz;
			tab_accel.samplerz_pair = acc_samplerz_pair;
			tab_accel.prng_refill = acc_prng_refill;
			tab_accel.ffsampling = acc_ffsampling;
		}
	}
	return tab_state == 1;
}

/* ------------------------------------------------------------------ */
/* ML-KEM-768 encapsulation sequencer (KEMENC window, op KEM_ENCAPS) */

#define KEMENC_EK_WORDS 296u
#define KEMENC_M_WORD 0x128u
#define KEMENC_CT_WORD 0x200u
#define KEMENC_K_WORD 0x310u
#define KEMENC_CT_WORDS 272u
#define KEMENC_POLL_LIMIT 1000000u

int fw_kemenc_available(void)
{
	return (mmio_rd(ACC(FA_RTL_REG_ID)) == FA_RTL_ID_VALUE)
		&& (mmio_rd(ACC(FA_RTL_REG_CONFIG)) & FA_RTL_CONFIG_KEMENC_MASK) != 0;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16)
		| ((uint32_t)p[3] << 24);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* A 32-bit word that may alias the byte buffers (rv32 is little-endian,
   so a word load equals le32 on a 4-byte-aligned buffer). */
typedef uint32_t __attribute__((may_alias)) kemenc_word;

/* n words from src to the KEMENC window from word w0: one load per word
   when src is 4-byte aligned, else assembled from bytes. */
static void kemenc_put(uint32_t w0, const uint8_t *src, uint32_t n)
{
	uint32_t i;

	if (((uintptr_t)src & 3u) == 0) {
		const kemenc_word *w = (const kemenc_word *)(const void *)src;
		for (i = 0; i < n; i ++) {
			mmio_wr(ACC(FA_RTL_WIN_KEMENC + 4u * (w0 + i)), w[i]);
		}
	} else {
		for (i = 0; i < n; i ++) {
			mmio_wr(ACC(FA_RTL_WIN_KEMENC + 4u * (w0 + i)), le32(src + 4u * i));
		}
	}
}

/* n words of the KEMENC window from word w0 to dst (as kemenc_put). */
static void kemenc_get(uint32_t w0, uint8_t *dst, uint32_t n)
{
	uint32_t i;

	if (((uintptr_t)dst & 3u) == 0) {
		kemenc_word *w = (kemenc_word *)(void *)dst;
		for (i = 0; i < n; i ++) {
			w[i] = mmio_rd(ACC(FA_RTL_WIN_KEMENC + 4u * (w0 + i)));
		}
	} else {
		for (i = 0; i < n; i ++) {
			put_le32(dst + 4u * i, mmio_rd(ACC(FA_RTL_WIN_KEMENC + 4u * (w0 + i))));
		}
	}
}

int fw_kemenc_encaps(const uint8_t *ek, const uint8_t m[32], uint8_t *ct,
	uint8_t ss[32])
{
	uint32_t i, st = 0, res;

	if (!fw_kemenc_available()) {
		return FA_ERR_INTERNAL;
	}
	kemenc_put(0, ek, KEMENC_EK_WORDS);
	kemenc_put(KEMENC_M_WORD, m, 8u);
	mmio_wr(ACC(FA_RTL_REG_CTRL), FA_RTL_CTRL_CLEAR_MASK);
	mmio_wr(ACC(FA_RTL_REG_CONST_LO), 768u);
	mmio_wr(ACC(FA_RTL_REG_OP), FA_RTL_OP_KEM_ENCAPS);
	mmio_wr(ACC(FA_RTL_REG_CTRL), FA_RTL_CTRL_START_MASK);
	for (i = 0; i < KEMENC_POLL_LIMIT; i ++) {
		st = mmio_rd(ACC(FA_RTL_REG_STATUS));
		if (st & FA_RTL_STATUS_DONE_MASK) {
			break;
		}
	}
	if (!(st & FA_RTL_STATUS_DONE_MASK)) {
		cur.error = 1;
		return FA_ERR_INTERNAL;
	}
	cur.acc_compute += mmio_rd(ACC(FA_RTL_REG_CYCLES));
	cur.kcalls ++;
	if ((st & FA_RTL_STATUS_ERR_MASK) >> FA_RTL_STATUS_ERR_LSB != FA_RTL_ERR_NONE) {
		res = mmio_rd(ACC(FA_RTL_REG_KEMENC_RESULT)) & FA_RTL_KEMENC_RESULT_ERR_MASK;
		if (res == FA_RTL_KEMERR_EK) {
			return FA_ERR_COEFF_RANGE;
		}
		cur.error = 1;
		return FA_ERR_INTERNAL;
	}
	kemenc_get(KEMENC_CT_WORD, ct, KEMENC_CT_WORDS);
	kemenc_get(KEMENC_K_WORD, ss, 8u);
	return FA_OK;
}

const fa_backend *fw_backend(unsigned mode)
{
	switch (mode) {
	case FA_SOC_MODE_FW:
		return &fa_backend_portable;
	case FA_SOC_MODE_ACCEL:
		if (!accel_init()) {
			return NULL;
		}
		cur_tr = &tr_mmio;
		return &tab_accel;
	case FA_SOC_MODE_DMA:
		if (!accel_init()) {
			return NULL;
		}
		cur_tr = &tr_dma;
		return &tab_accel;
	default:
		return NULL;
	}
}
