/*
 * cli_soc.h -- the CLI's `soc` backend: whole operations forwarded to the
 * firmware of the simulated SoC (soc_client.h). Selected by --backend soc
 * or FALCON_ACCEL_BACKEND=soc (never by default), for the commands bench
 * and kat only (the others refuse it, naming these two); the kernel mode
 * by FALCON_ACCEL_SOC_MODE = dma (default: accelerator + DMA, chained, the
 * fastest), accel (accelerator kernels, operands by the CPU) or fw
 * (firmware only, emulated FP).
 */
#ifndef FA_CLI_SOC_H
#define FA_CLI_SOC_H

#include <stddef.h>
#include <stdint.h>

#include "soc_client.h"

/* 1 when `name` (else the global --backend, else $FALCON_ACCEL_BACKEND)
   is "soc". */
int cli_soc_selected(const char *name);

/* 1 when a subcommand's arguments (argv[0] = subcommand) name
   --backend soc, or the global --backend or the environment do. */
int cli_soc_requested(int argc, char **argv);

/* `falcon-accel bench --backend soc [--json] [--runs R] [--degree D]`. */
int cli_soc_cmd_bench(int argc, char **argv);

/* "available (bench and kat only; mode dma; simulator ..., firmware
   ...)" or "unavailable (...: make -C soc sim)", for `backends`. */
void cli_soc_describe(char *buf, size_t len);

/* The SoC, started on first use (exits with code 2 on failure). */
fa_soc *cli_soc_get(void);
unsigned cli_soc_mode(void);

/* One KAT record on the firmware: keygen from the 48-byte DRBG seed,
   sign_dyn and sign_tree with the same nonce and sampler seed (they must
   agree), verify; writes sk, pk and the compressed signature (returns
   its length). Exits (code 2) on any failure. */
size_t cli_soc_kat_record(unsigned logn, unsigned count,
	const uint8_t keygen_seed[48], const uint8_t nonce[40],
	const uint8_t sign_seed[48], const uint8_t *msg, size_t mlen,
	uint8_t *sk, uint8_t *pk, uint8_t *sig, size_t sig_max);

/* `falcon-accel bench --backend soc`: keygen, sign_dyn, sign_tree,
   verify (and pubkey) per degree, `runs` times each (default 1), with
   the SoC's mcycle counts. */
int cli_soc_bench(int json, unsigned runs, unsigned logn_lo,
	unsigned logn_hi);

#endif
