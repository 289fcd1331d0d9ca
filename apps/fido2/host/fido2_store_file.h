/*
 * Durable credential store for the host daemon: one file per record in a
 * state directory, each written as tmp file + fsync + rename + fsync of
 * the directory, so that a kill -9 at any instant leaves either the old
 * or the new version of every file, never a torn one.
 *
 *   DIR/state.bin               device secret, counter reservation, epoch
 *   DIR/cred-<32 hex>.bin       one discoverable credential; the name is a
 *                               hash of (rpIdHash, user handle), so a
 *                               replacement for the same account is one
 *                               atomic rename onto the same name; magic
 *                               FAF2CRD2 (fido2_cred_serialize version 2,
 *                               with the scheme), or FAF2CRD1 (version 1:
 *                               a round-3 credential written before FN-DSA,
 *                               read as round 3, never written anew)
 * Every file ends with the SHA-256 of its contents (checked on load: a
 * mismatch is reported and the daemon refuses to start, it never guesses).
 * The store never deletes a record on its own: records of an older epoch
 * are skipped on load only while the state says a Reset is in progress
 * (FIDO2_STATE_RESET_PENDING; the authenticator's start then finishes
 * the wipe). Refused at open, with the file and what to do: records
 * without state.bin, a record of another epoch without a Reset in
 * progress, a corrupt file, a directory that cannot be read, or one that
 * does not take a record-sized write (read-only, full).
 */
#ifndef FIDO2_STORE_FILE_H
#define FIDO2_STORE_FILE_H

#include "fido2_ctap2.h"

#define FIDO2_FILE_STORE_MAX 256

typedef struct {
	char dir[512];
	int ncreds;
	fido2_cred creds[FIDO2_FILE_STORE_MAX];
	uint32_t epoch;           /* of the loaded state, for stale records */
	uint32_t flags;           /* of the loaded state (FIDO2_STATE_*) */
	char err[1024];           /* last error, for messages */
	unsigned long nerr;       /* write failures since open (err: the last) */
} fido2_file_store;

extern const fido2_store_ops fido2_file_store_ops;

/* Opens (creating if needed) DIR, removes leftover tmp files (writes that
   were never acknowledged), loads every record and checks that DIR takes
   a write. 0 on success; -1 with fs->err set. */
int fido2_file_store_open(fido2_file_store *fs, const char *dir);

#endif
