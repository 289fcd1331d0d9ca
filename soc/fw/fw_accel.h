/*
 * fw_accel.h -- the kernel tables the firmware runs Falcon with, one per
 * request mode (soc/fw/soc_proto.h FA_SOC_MODE_*), and the counters that
 * say where an operation's cycles went.
 */
#ifndef FW_ACCEL_H
#define FW_ACCEL_H

#include <stdint.h>

#include "falcon_accel.h"
#include "fa_rtl.h"

/* The backend for `mode`, or NULL when the mode is unknown or the SoC has
   no usable accelerator. */
const fa_backend *fw_backend(unsigned mode);

/* Counters over one operation. */
typedef struct {
	uint32_t acc_compute;   /* accelerator CYCLES summed over kernel calls */
	uint32_t acc_bus;       /* cycles the CPU waited on the accelerator port */
	uint32_t dma;           /* cycles the DMA engine was busy */
	uint32_t kcalls;        /* accelerator kernel calls */
	int      error;         /* an accelerator call failed (kernel fell back or result void) */
} fw_stats;

/* The ffSampling engine's tree: by default forgotten at every
   fw_stats_begin (uploaded again by the next operation that needs it).
   fw_accel_keep_tree(1): kept across operations; the caller then calls
   fw_accel_forget_tree() before any tree buffer it signed with changes. */
void fw_accel_keep_tree(int keep);
void fw_accel_forget_tree(void);

void fw_stats_begin(void);
void fw_stats_end(fw_stats *s);

/* ML-KEM-768 encapsulation on the accelerator's encaps sequencer
   (hw/mlkem, CONFIG.KEMENC): ek (1,184 bytes) and m in through the KEMENC
   window, op KEM_ENCAPS, ct (1,088 bytes) and K out. Returns FA_OK,
   FA_ERR_COEFF_RANGE (ek fails the modulus check), or FA_ERR_INTERNAL (no
   such unit, a timeout, another device error; nothing written). Adds the
   device's CYCLES to the current counters (fw_stats_begin / _end). */
int fw_kemenc_available(void);
int fw_kemenc_encaps(const uint8_t *ek, const uint8_t m[32], uint8_t *ct,
	uint8_t ss[32]);

/* Per-kernel statistics of the last operation (FA_RTL_K_COUNT entries;
   cycles_with_transfer counted with mcycle, as the CPU sees the call). */
const fa_rtl_kstat *fw_kstats(void);

#endif
