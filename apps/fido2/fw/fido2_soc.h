/*
 * fido2_soc.h -- the FIDO2 authenticator on the SoC: the mailbox op that
 * carries CTAPHID reports, the RAM region that stands for flash, and the
 * device loop shared by the firmware (apps/fido2/fw/fido2_main.c) and the bridge's
 * in-process core (apps/fido2/host/falcon_accel_fido2_soc.c --core host).
 *
 * Op FA_SOC_OP_FIDO2 (request framing of soc/fw/soc_proto.h; logn 0, mode =
 * the kernel table, FA_SOC_MODE_*):
 *   fields: entropy (FIDO2_SOC_ENTROPY bytes), report (64 bytes, one
 *           CTAPHID report from the host)
 *   reply:  one field, the reports the authenticator sends back (a
 *           multiple of 64 bytes, possibly none); cycles = mcycle count
 *           of the request; aux = 1 + the CTAP command byte when the
 *           report completed a CTAPHID_CBOR message (else 0); lib_rc = the
 *           CTAP status byte of that command; accelerator counters as for
 *           the Falcon ops.
 *   PING (FA_SOC_OP_PING) is answered as by fw_main.c; every other op is
 *   BAD_OP.
 * Entropy: the SoC has no random source; the host sends fresh entropy with
 * every report and the device keeps a SHAKE256 pool over all of it (key
 * seeds, credential nonces and the device secret come from the pool). A
 * real device needs a TRNG here.
 *
 * Flash: FIDO2_SOC_FLASH_SIZE bytes of RAM at FIDO2_SOC_FLASH_BASE, outside
 * the firmware image (apps/fido2/fw/fido2_link.ld), as FIDO2_SOC_FLASH_PAGES erase
 * pages for the page store (apps/fido2/core/fido2_store_flash.h). It outlives a
 * simulator restart only through the harness (soc_sim --flash FILE
 * --flash-base --flash-size), which saves it after every change, before
 * the reply goes out. The image is the same bytes for the firmware and the
 * host core, so a state provisioned on the host boots on the SoC.
 *
 * Expanded-key cache: FIDO2_SOC_EK_SIZE bytes of RAM at FIDO2_SOC_EK_BASE,
 * just below the flash, outside the image too, given to the core with
 * fido2_auth_set_ek_cache_persistent (apps/fido2/core/fido2_ctap2.h): modelled
 * as memory-mapped persistent memory (stores durable in program order,
 * no erase/program semantics, unlike the page store). The harness
 * persists both regions as one image of FIDO2_SOC_IMAGE_SIZE bytes from
 * FIDO2_SOC_IMAGE_BASE (the cache at offset 0, the flash at
 * FIDO2_SOC_FLASH_BASE - FIDO2_SOC_IMAGE_BASE), so the expanded keys of
 * the last FIDO2_EK_SLOTS credentials used survive a power-up.
 */
#ifndef FIDO2_SOC_H
#define FIDO2_SOC_H

#include <stddef.h>
#include <stdint.h>

#include "falcon_accel.h"
#include "fido2_ctap2.h"
#include "fido2_ctaphid.h"
#include "fido2_store_flash.h"

#define FA_SOC_OP_FIDO2        0x40u
#define FIDO2_SOC_ENTROPY      32u
#define FIDO2_SOC_FLASH_BASE   0x000E0000u
#define FIDO2_SOC_FLASH_SIZE   0x00020000u
#define FIDO2_SOC_FLASH_PAGE   0x1000u
#define FIDO2_SOC_FLASH_PAGES  (FIDO2_SOC_FLASH_SIZE / FIDO2_SOC_FLASH_PAGE)
#define FIDO2_SOC_EK_BASE      0x000A0000u
#define FIDO2_SOC_EK_SIZE      0x00040000u
#define FIDO2_SOC_IMAGE_BASE   FIDO2_SOC_EK_BASE
#define FIDO2_SOC_IMAGE_SIZE   (FIDO2_SOC_FLASH_BASE + FIDO2_SOC_FLASH_SIZE \
	- FIDO2_SOC_IMAGE_BASE)
#define FIDO2_SOC_IMAGE_FLASH_OFF (FIDO2_SOC_FLASH_BASE - FIDO2_SOC_IMAGE_BASE)
/* the cache fits its region, which ends where the flash begins */
typedef char fido2_soc_ek_fits[(FIDO2_EK_CACHE_SIZE(FIDO2_EK_SLOTS)
	<= FIDO2_SOC_EK_SIZE && FIDO2_SOC_EK_BASE + FIDO2_SOC_EK_SIZE
	== FIDO2_SOC_FLASH_BASE) ? 1 : -1];
/* Reports one request can produce: a whole response of the largest
   message (129 reports) and one error report. */
#define FIDO2_SOC_OUT_MAX      (130u * 64u)

typedef struct {
	const fa_backend *be;
	uint32_t (*now_ms)(void *user);
	void *user;
	uint8_t *flash;            /* FIDO2_SOC_FLASH_SIZE bytes */
	void *tmp;                 /* Falcon scratch, FIDO2_TMP_SIZE bytes */

	fido2_flash fl;
	fido2_flash_store fs;
	fido2_hid hid;
	fido2_auth auth;
	fa_shake256_ctx pool;
	int started;               /* flash mounted, device state loaded */
	void *ek;                  /* expanded-key cache (NULL: none) */
	size_t ek_len;
	void (*ek_changed)(void *user);
	int ek_persistent;         /* ek is persistent memory */

	/* the request being served */
	uint8_t *out;
	uint32_t out_len;
	uint32_t out_dropped;      /* reports beyond FIDO2_SOC_OUT_MAX */
	int ctap_cmd;              /* -1, or the CTAP command handled */
	uint8_t ctap_status;
} fido2_soc_dev;

/* Binds the device to its flash region, scratch and clock; starts
   nothing (the device secret needs the host's entropy: the first
   request mounts the store and loads or creates the state). */
void fido2_soc_dev_setup(fido2_soc_dev *d, const fa_backend *be,
	uint8_t *flash, void *tmp, uint32_t (*now_ms)(void *user), void *user);

/* Gives the authenticator an expanded-key cache (buf 8-byte aligned, len
   bytes; changed is called with d before a slot's expanded key changes),
   applied whenever the device state is (re)loaded: persistent = 0,
   fido2_auth_set_ek_cache (the buffer is formatted each time); 1,
   fido2_auth_set_ek_cache_persistent (its content is adopted when valid,
   so that the expanded keys survive a power-up and a trap). */
void fido2_soc_dev_set_ek_cache(fido2_soc_dev *d, void *buf, size_t len,
	void (*changed)(void *user), int persistent);

/* Serves one report with fresh entropy; the reports to send back go to
   out (capacity FIDO2_SOC_OUT_MAX), their byte count to *out_len.
   0, or -1 when the store cannot be mounted or the state not created
   (nothing is answered then). */
int fido2_soc_dev_report(fido2_soc_dev *d, const uint8_t *entropy,
	size_t entropy_len, const uint8_t rpt[64], uint8_t *out,
	uint32_t *out_len);

/* "makeCredential", "getAssertion", ... for a CTAP command byte. */
const char *fido2_soc_cmd_name(int cmd);

#endif
