/*
 * Flash-page store for firmware: the fido2_store_ops of the authenticator
 * over a NOR-like flash (erase sets a page to 0xFF, programming only
 * clears bits), with the guarantee of the host's file store: after a
 * power cut at any instant, the store mounts, every write that returned
 * is there, and the device state (signature counter reservation) never
 * goes back.
 *
 * Layout: two banks of npages/2 pages; the live bank is the committed one
 * with the higher generation. A bank is a log:
 *   bank header:  "FA2BANK1" | generation (4) | commit (4)
 *   record:       "FA2R" | type (2) | len (2) | payload | SHA-256 (32)
 *                 | commit (4), padded to 8 bytes
 * Record types: 1 device state, 4 credential (fido2_cred_serialize's
 * version 2, with the scheme), 3 wipe (Reset); 2 is a credential of
 * version 1 (round-3 Falcon, written before FN-DSA): read and kept as it
 * is (compaction copies it unchanged), never written anew.
 * A record counts only once its commit word (written last) is zero and its
 * checksum matches; the first record that does not ends the log. A bank
 * with anything but 0xFF after its log (a torn write) is never appended
 * to again: the next write first compacts the live records into the other
 * bank (erase, copy, then commit that bank's header), so a cut during
 * compaction leaves the old bank live.
 * RAM: an index of FIDO2_FLASH_MAX_CREDS (address, account hash) pairs;
 * records are read from flash when asked for. The HAL's program() must
 * accept any address and length (byte-programmable NOR); a flash with
 * write-once double words needs a HAL that buffers. A record that fails its
 * checksum ends the log like a torn one (the log cannot be read past it).
 * Records are dropped only by a T_WIPE (Reset) or, at mount, left out while
 * the state says a Reset is in progress; see fido2_flash_store_mount.
 */
#ifndef FIDO2_STORE_FLASH_H
#define FIDO2_STORE_FLASH_H

#include <stddef.h>
#include <stdint.h>
#include "fido2_ctap2.h"

#ifndef FIDO2_FLASH_MAX_CREDS
#define FIDO2_FLASH_MAX_CREDS 16
#endif

typedef struct {
	uint32_t page_size;     /* bytes per erase page, a multiple of 8 */
	uint32_t npages;        /* even, >= 2 */
	void *user;
	/* 0 on success. program() may only clear bits of erased bytes. */
	int (*read)(void *user, uint32_t addr, void *buf, uint32_t len);
	int (*program)(void *user, uint32_t addr, const void *buf, uint32_t len);
	int (*erase)(void *user, uint32_t page);
} fido2_flash;

typedef struct {
	const fido2_flash *fl;
	uint32_t bank;          /* live bank: 0 or 1 */
	uint32_t generation;
	uint32_t head;          /* next free offset in the live bank */
	int dirty;              /* torn bytes after the log: compact first */
	int have_state;
	fido2_dev_state st;
	int ncreds;
	uint32_t cred_addr[FIDO2_FLASH_MAX_CREDS];   /* payload address */
	uint8_t cred_v1[FIDO2_FLASH_MAX_CREDS];      /* a version-1 record */
	uint8_t cred_key[FIDO2_FLASH_MAX_CREDS][32]; /* H(rpIdHash, user id) */
	const char *err;        /* why a mount returned -2 (a static string) */
	uint8_t rec[2700];      /* one record read back (scratch) */
	uint8_t put_buf[2700];  /* a credential being written */
} fido2_flash_store;

extern const fido2_store_ops fido2_flash_store_ops;

/* Mounts (formatting a blank flash). 0; -1 if the flash cannot be read or
   written; -2 if its content is inconsistent (fs->err says how): no
   committed bank on a flash that is not blank, credential records without
   a device state, or a record of another epoch while the state has no
   Reset in progress (FIDO2_STATE_RESET_PENDING, fido2_ctap2.h). Nothing is
   erased or rewritten then: the device answers an error instead of
   serving a key without its credentials. */
int fido2_flash_store_mount(fido2_flash_store *fs, const fido2_flash *fl);

#endif
