/*
 * fa_rtl.h -- the "rtl" backend: the falcon-accel RTL (hw/) driven at the
 * register level. The driver (rtl_driver.c) knows only the register map
 * (fa_rtl_regs.h, generated from hw/top/data/regmap.json) and talks to a
 * transport: the Verilated model (transport_sim.cpp, the default) or a
 * memory-mapped device (transport_uio.c: Linux UIO or /dev/mem; untested
 * on a board).
 */
#ifndef FA_RTL_H
#define FA_RTL_H

#include <stddef.h>
#include <stdint.h>

#include "fa_rtl_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A transport: 32-bit register/window accesses at byte offsets, and an
   optional burst path (NULL when absent: the driver then uses the memory
   windows). `cycles` returns the device clock count when the transport
   knows it (simulation), else 0. Returns of rd/wr: 0 OK, -1 bus error. */
typedef struct fa_rtl_transport {
	void *ctx;
	int (*wr)(void *ctx, uint32_t off, uint32_t v);
	int (*rd)(void *ctx, uint32_t off, uint32_t *v);
	/* words to / from the memory window `target` (FA_RTL_TARGET_* enum),
	   from word 0 */
	int (*burst_wr)(void *ctx, unsigned target, const uint32_t *w, size_t n);
	int (*burst_rd)(void *ctx, unsigned target, uint32_t *w, size_t n);
	uint64_t (*cycles)(void *ctx);
	const char *name;
} fa_rtl_transport;

/* Transports. Each returns 0 on success. */
int fa_rtl_sim_open(fa_rtl_transport *t);          /* Verilated model */
int fa_rtl_uio_open(fa_rtl_transport *t, const char *path, uint64_t phys);

/* Per-kernel statistics (accumulated since the last reset), one slot per
   kernel: FA_RTL_K_* (fa_rtl_kernels.h, generated from rtl_kernels.json
   by gen_rtl_kernels.py). */
typedef struct {
	uint64_t calls;
	uint64_t cycles;                /* compute only (CYCLES register) */
	uint64_t cycles_with_transfer;  /* load + compute + read back */
	uint32_t last_logn, last_cycles, last_cycles_with_transfer;
} fa_rtl_kstat;
extern const char *const fa_rtl_kernel_names[FA_RTL_K_COUNT];
void fa_rtl_stats(fa_rtl_kstat out[FA_RTL_K_COUNT]);
void fa_rtl_stats_reset(void);

/* The backend's samplerz / samplerz_pair slots use the device when
   FA_RTL_SAMPLERZ=1 is set, or after fa_rtl_samplerz_force(1); 0 turns
   them off (portable), -1 back to the environment. */
void fa_rtl_samplerz_force(int on);

/* The register-level driver on a given transport (used by the backend
   and by the tests). Return 0 on success, a negative value on a device
   error (status code or bus error). */
int fa_rtl_drv_fpr_op(fa_rtl_transport *t, unsigned op, uint64_t *a,
	const uint64_t *b, uint64_t c, unsigned logn, fa_rtl_kstat *st);
int fa_rtl_drv_mq_op(fa_rtl_transport *t, unsigned op, uint16_t *a,
	const uint16_t *b, unsigned logn, fa_rtl_kstat *st);
/* a = iNTT(NTT(a) o b) (b in NTT form) with a kept in the device between
   the three ops (loaded once, read back once); a written only on success. */
int fa_rtl_drv_mq_mul_by_ntt(fa_rtl_transport *t, uint16_t *a,
	const uint16_t *b, unsigned logn, fa_rtl_kstat *st);
/* SamplerZ unit (ops SZ_LOAD, SAMPLERZ). sz_load: the PRNG key (fa_prng
   state bytes 0..47), the block counter of the buffer to generate and the
   byte pointer into it (a fa_prng in use: its counter minus 8 and its
   ptr). samplerz: *z = SamplerZ(mu, 1/sigma) with sigma_min (binary64
   bit patterns), then the PRNG's counter and pointer after the sample (as
   fa_prng's fields). Return 0, -1 on a bus error, a positive STATUS.ERR
   code when refused, or minus the unit's SZ_RESULT.ERR code. */
int fa_rtl_drv_sz_load(fa_rtl_transport *t, const uint8_t key[48],
	uint64_t ctr, unsigned ptr, fa_rtl_kstat *st);
int fa_rtl_drv_samplerz(fa_rtl_transport *t, uint64_t mu, uint64_t isigma,
	uint64_t sigma_min, int *z, uint64_t *ctr, unsigned *ptr,
	fa_rtl_kstat *st);
/* Keccak unit (hw/keccak; present when CONFIG.KECCAK = 1, which _present
   says). The state (50 words, word w = sponge bytes 4w..4w+3 little-endian,
   lane i = words 2i, 2i+1) stays in the device between calls:
   clear: state = 0; absorb: XOR w[0..n) into words 0..n-1 (n <= 50, a
   block of any rate); permute: state = Keccak-f[1600](state); squeeze:
   words 0..n-1 into w. keccak_f1600: a[0..25) = Keccak-f[1600](a) on the
   device (clear, absorb 50, permute, squeeze 50); a is written only on
   success. Return 0, -1 on a bus error, or the refused START's STATUS.ERR
   code. */
#define FA_RTL_KECCAK_WORDS 50u
int fa_rtl_drv_keccak_present(fa_rtl_transport *t);
int fa_rtl_drv_keccak_clear(fa_rtl_transport *t);
int fa_rtl_drv_keccak_absorb(fa_rtl_transport *t, const uint32_t *w, size_t n);
int fa_rtl_drv_keccak_permute(fa_rtl_transport *t, fa_rtl_kstat *st);
int fa_rtl_drv_keccak_squeeze(fa_rtl_transport *t, uint32_t *w, size_t n);
int fa_rtl_drv_keccak_f1600(fa_rtl_transport *t, uint64_t *a, fa_rtl_kstat *st);
/* ffSampling engine (CONFIG.FFSAMP = 1; hw/ffsamp). These need the burst
   path (the tree and work memories have no AXI4-Lite window): -1 without
   one. Its burst_wr / burst_rd `target` is then the STREAM register value:
   TARGET | START << 16 (START: first word, FS_TREE / FS_WORK only).
   fs_present: 1 when the engine is built in. fs_tree: write the LDL tree
   (TREESIZE(logn) = (logn + 1) 2^logn fpr bit patterns, the library's
   layout) and commit it (FS_TREE), checking FS_TREE.OK. ffsampling: t0, t1
   (n each) in, FFSAMPLING on LOGN with sigma_min, max_trials (0 = 255)
   and a cycle watchdog wdog (0 = none), z0, z1 out, then the PRNG's block
   counter and byte pointer after (fa_prng's fields); the PRNG state must
   have been loaded (sz_load). Return 0, -1 on a bus error, a positive
   STATUS.ERR code when refused, or minus FS_RESULT.ERR (enum FSERR); z0,
   z1 may have been written when the call fails (callers pass scratch:
   rtl_sampling.c's users do). Operands move from and to the callers' arrays without a staging copy
   where the byte order allows (little-endian: fpr_op's a and b, the tree,
   t0 || t1, z0 || z1 when adjacent). */
int fa_rtl_drv_fs_present(fa_rtl_transport *t);
int fa_rtl_drv_fs_tree(fa_rtl_transport *t, const uint64_t *tree,
	unsigned logn, fa_rtl_kstat *st);
int fa_rtl_drv_ffsampling(fa_rtl_transport *t, const uint64_t *t0,
	const uint64_t *t1, uint64_t *z0, uint64_t *z1, unsigned logn,
	uint64_t sigma_min, unsigned max_trials, uint32_t wdog, uint64_t *ctr,
	unsigned *ptr, fa_rtl_kstat *st);
/* The SamplerZ PRNG's current buffer (target SZ_BUF, burst path only: -1
   without one or when refused, e.g. before any SZ_LOAD): the library's
   fa_prng buf for the device's state (blocks SZ_STATE_CTR - 8 ..
   SZ_STATE_CTR - 1); buf may have been written on a failure. buf is
   4-byte aligned (on little-endian hosts the words land in it directly). */
int fa_rtl_drv_sz_buf(fa_rtl_transport *t, uint8_t buf[512], fa_rtl_kstat *st);
/* Expanded-key checksum unit (CONFIG.EKSUM; hw/eksum). eksum_present: 1
   when the device has it. eksum_lanes: EKSUM <- logn (seeds), the nw
   words w streamed to target EKSUM (burst path only: -1 without one; nw
   a positive multiple of 8 below 2^24, else -1), EKSUM.COUNT read until
   it is nw (bounded), then the eight lanes into h[0..7]; the library's
   fa_ek_checksum32_fold(h, nw) turns them into the version-2 checksum.
   The stream's cycles are accounted as cycles_with_transfer (the unit
   has no compute cycles of its own). */
int fa_rtl_drv_eksum_present(fa_rtl_transport *t);
int fa_rtl_drv_eksum_lanes(fa_rtl_transport *t, const uint32_t *w, size_t nw,
	unsigned logn, uint32_t h[8], fa_rtl_kstat *st);
/* FS_SZ_CYCLES: cycles of the last FFSAMPLING spent waiting for SamplerZ. */
int fa_rtl_drv_fs_sz_cycles(fa_rtl_transport *t, uint32_t *cycles);
/* ML-KEM mode of the NTT unit (CONFIG.MLKEM = 1; hw/ntt kem_engine), the
   seam slots' contract (src/kernels.h): int16 coefficients in, centred
   representatives out. kem_ntt: a = NTT(a) (|a| < q in the slot; any
   int16 here); kem_invntt: a = NTT^-1(a) * 2^16; kem_basemul_acc: r =
   sum_{j<nk} a_j o b_j * 2^-16 (nk = 1..4 consecutive polynomials of 256).
   Outputs written only on success. Return 0, -1 on a bus error (or a
   non-canonical value read back, or nk out of range), or the refused
   START's STATUS.ERR code. */
int fa_rtl_drv_kem_present(fa_rtl_transport *t);
int fa_rtl_drv_kem_ntt(fa_rtl_transport *t, int16_t *a, fa_rtl_kstat *st);
int fa_rtl_drv_kem_invntt(fa_rtl_transport *t, int16_t *a, fa_rtl_kstat *st);
int fa_rtl_drv_kem_basemul_acc(fa_rtl_transport *t, int16_t *r,
	const int16_t *a, const int16_t *b, unsigned nk, fa_rtl_kstat *st);
/* Start `op` on the loaded operands; returns the STATUS.ERR code (0 when
   accepted and completed). */
int fa_rtl_drv_start(fa_rtl_transport *t, unsigned op, unsigned logn,
	uint32_t *cycles);

#ifdef __cplusplus
}
#endif

#endif
