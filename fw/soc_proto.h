/*
 * soc_proto.h -- the host link protocol between the host (tools/soc_*.c,
 * through the simulation harness hw/soc/dv/soc_sim.cpp) and the firmware
 * (fw/fw_main.c). Shared by both sides; all integers little endian.
 *
 * On the harness pipe every message is a frame: u32 FA_SOC_FRAME_MAGIC,
 * u32 length, then `length` bytes (a request or a reply). Inside the SoC
 * the request sits in the mailbox buffer at offset 0, the reply at 0x8000.
 *
 * Request:  u32 magic (FA_SOC_REQ_MAGIC), u16 op, u8 logn, u8 mode,
 *           u32 seq, then the op's fields, each u32 length + bytes.
 * Reply:    FA_SOC_RSP_HDR bytes (layout below), then fields, each
 *           u32 length + bytes.
 *
 * Ops (fields in order):
 *   PING       -                           -> info (u32 words: soc id,
 *                                             soc config, accel id)
 *   KEYGEN     seed (1..64 bytes)          -> sk, pk      (keygen RNG =
 *                                             SHAKE256(seed))
 *   SIGN_DYN   sk, nonce (40), seed, msg   -> sig (compressed; sampler
 *                                             RNG = SHAKE256(seed))
 *   SIGN_TREE  sk, nonce, seed, msg        -> sig (expand + sign; cycles
 *                                             = signing, cycles_aux =
 *                                             expansion)
 *   VERIFY     pk, sig, msg                -> - (lib_rc: 0 valid, else
 *                                             the library's error code)
 *   PUBKEY     sk                          -> pk (public key from f, g)
 *   KSTATS     -                           -> per-kernel table of the last
 *                                             operation: FA_RTL_K_COUNT
 *                                             entries of u32 calls, u64
 *                                             compute cycles, u64 cycles
 *                                             with transfers (mcycle)
 * A reply to a request that could not be served has status != OK and no
 * fields; the firmware then waits for the next request.
 */
#ifndef FA_SOC_PROTO_H
#define FA_SOC_PROTO_H

#include <stdint.h>

#define FA_SOC_FRAME_MAGIC 0x4D52464Bu   /* 'KFRM' */
#define FA_SOC_REQ_MAGIC   0x51434F53u   /* 'SOCQ' */
#define FA_SOC_RSP_MAGIC   0x52434F53u   /* 'SOCR' */

#define FA_SOC_REQ_HDR 12u
#define FA_SOC_MAX_MSG 0x8000u           /* request or reply, bytes */

enum {
	FA_SOC_OP_PING = 1,
	FA_SOC_OP_KEYGEN = 2,
	FA_SOC_OP_SIGN_DYN = 3,
	FA_SOC_OP_SIGN_TREE = 4,
	FA_SOC_OP_VERIFY = 5,
	FA_SOC_OP_PUBKEY = 6,
	FA_SOC_OP_KSTATS = 7,
	FA_SOC_OP_KEM_KEYGEN = 8,  /* ML-KEM, logn byte = rank k (fw_main.c serve_kem) */
	FA_SOC_OP_KEM_ENCAPS = 9,
	FA_SOC_OP_KEM_DECAPS = 10
};

/* mode: which engine runs the kernels */
enum {
	FA_SOC_MODE_FW = 0,        /* firmware only, emulated FP */
	FA_SOC_MODE_ACCEL = 1,     /* firmware + accelerator kernels (CPU moves data) */
	FA_SOC_MODE_DMA = 2,       /* firmware + accelerator, DMA transfers */
	FA_SOC_MODE_KEMENC = 3     /* ML-KEM ops only: as DMA, but ML-KEM-768
	                              encaps on the accelerator's encaps
	                              sequencer when built in (CONFIG.KEMENC;
	                              else the DMA path) */
};

enum {
	FA_SOC_ST_OK = 0,
	FA_SOC_ST_BAD_MAGIC = 1,   /* request magic wrong */
	FA_SOC_ST_BAD_OP = 2,      /* unknown op */
	FA_SOC_ST_BAD_LENGTH = 3,  /* request or field length wrong */
	FA_SOC_ST_BAD_DEGREE = 4,  /* logn unsupported or a key of another degree */
	FA_SOC_ST_BAD_MODE = 5,    /* unknown mode, or no accelerator */
	FA_SOC_ST_LIB_ERROR = 6,   /* the library refused (lib_rc says why) */
	FA_SOC_ST_TRAP = 7,        /* CPU exception during the op (cycles_aux = mcause, lib_rc = mepc) */
	FA_SOC_ST_ACCEL = 8,       /* accelerator error or timeout */
	FA_SOC_ST_SIM_TIMEOUT = 9  /* (harness) the firmware did not answer in time */
};

/* Reply header: byte offsets. */
#define FA_SOC_RSP_MAGIC_OFF   0u   /* u32 */
#define FA_SOC_RSP_OP_OFF      4u   /* u16 */
#define FA_SOC_RSP_STATUS_OFF  6u   /* u16 */
#define FA_SOC_RSP_SEQ_OFF     8u   /* u32 */
#define FA_SOC_RSP_LIBRC_OFF   12u  /* i32, the library's return code */
#define FA_SOC_RSP_CYCLES_OFF  16u  /* u64, mcycle count of the operation */
#define FA_SOC_RSP_AUX_OFF     24u  /* u64, see the op */
#define FA_SOC_RSP_ACC_OFF     32u  /* u32, accelerator compute cycles (sum of CYCLES) */
#define FA_SOC_RSP_BUS_OFF     36u  /* u32, cycles the CPU waited on the accelerator bus */
#define FA_SOC_RSP_DMA_OFF     40u  /* u32, cycles the DMA engine was busy */
#define FA_SOC_RSP_KCALLS_OFF  44u  /* u32, accelerator kernel calls */
#define FA_SOC_RSP_HDR         48u

/* Little-endian u32 fields of the link messages, for both sides. */
static inline uint32_t fa_soc_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16)
		| ((uint32_t)p[3] << 24);
}

static inline void fa_soc_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

#endif
