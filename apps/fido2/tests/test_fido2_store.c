/*
 * The daemon's file store (apps/fido2/host/fido2_store_file.c): records and
 * state survive a reopen; replacing an account rewrites one file; a
 * leftover tmp file (a write killed before its rename) is removed and
 * ignored; a corrupt or truncated file is detected and named (the store
 * refuses to open); records whose state does not license them (no
 * state.bin; another epoch without a Reset in progress) are refused by
 * name and left untouched; a Reset interrupted after its commit point
 * (new epoch with FIDO2_STATE_RESET_PENDING, old records still there) is
 * finished by the authenticator's start; a state file of the first layout
 * still loads, and a credential record of the first layout (round 3,
 * before FN-DSA) reads as round 3 (one whose ID names FN-DSA is refused
 * as corrupt) and is replaced in the current layout; records of both
 * schemes round-trip; a failed write names the file and the reason; and
 * the authenticator's counter never repeats across reopen.
 */
#define _GNU_SOURCE
#include "fido2_test_util.h"
#include "fido2_store_file.h"
#include "fido2_sha256.h"

#include <sys/stat.h>
#include <unistd.h>

static fido2_file_store FS;

static void mkcred(fido2_cred *c, const char *user, uint32_t epoch, uint8_t tag)
{
	memset(c, 0, sizeof *c);
	memset(c->id, tag, sizeof c->id);
	memset(c->rp_id_hash, 0x33, 32);
	c->user_id_len = (uint8_t)strlen(user);
	memcpy(c->user_id, user, c->user_id_len);
	/* both schemes; the ID's header bytes name the record's scheme and
	   degree (the decoder checks it), the key fills its scheme's size */
	c->scheme = (tag & 1) ? FIDO2_SCHEME_FNDSA : FIDO2_SCHEME_FALCON_R3;
	c->logn = 9;
	c->id[0] = c->scheme;
	c->id[1] = c->logn;
	c->epoch = epoch;
	c->created = tag;
	memset(c->sk, tag ^ 0x5a, c->scheme == FIDO2_SCHEME_FNDSA
		? FA_FNDSA_PRIVKEY_SIZE(9) : FA_PRIVKEY_SIZE(9));
}

static int count_files(const char *dir, const char *suffix)
{
	char cmd[700];
	FILE *p;
	int n = -1;
	snprintf(cmd, sizeof cmd, "ls '%s' | grep -c '%s$'", dir, suffix);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1) n = -1;
	if (p) pclose(p);
	return n;
}

static void corrupt(const char *path, long off)
{
	FILE *f = fopen(path, "r+b");
	int c;
	fseek(f, off, SEEK_SET);
	c = fgetc(f);
	fseek(f, off, SEEK_SET);
	fputc(c ^ 1, f);
	fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/test_fido2_store_XXXXXX", path[700], cmd[1600];
	fido2_dev_state st, st2;
	fido2_cred c, got;
	int i;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	CHECK(fido2_file_store_open(&FS, dir) == 0, "open empty: %s", FS.err);
	CHECK(fido2_file_store_ops.load_state(&FS, &st) == 1, "no state yet");
	memset(&st, 0, sizeof st);
	memset(st.master, 0xab, 32);
	st.counter_reserved = 64;
	st.epoch = 1;
	CHECK(fido2_file_store_ops.save_state(&FS, &st) == 0, "save state");
	mkcred(&c, "alice", 1, 1);
	CHECK(fido2_file_store_ops.cred_put(&FS, &c) == 0, "put alice");
	mkcred(&c, "bob", 1, 2);
	CHECK(fido2_file_store_ops.cred_put(&FS, &c) == 0, "put bob");
	mkcred(&c, "alice", 1, 3);
	CHECK(fido2_file_store_ops.cred_put(&FS, &c) == 0, "replace alice");
	CHECK(FS.ncreds == 2 && count_files(dir, ".bin") == 3, "two records + state");

	/* Reopen: everything back, bit for bit. */
	CHECK(fido2_file_store_open(&FS, dir) == 0, "reopen: %s", FS.err);
	CHECK(fido2_file_store_ops.load_state(&FS, &st2) == 0
		&& !memcmp(&st, &st2, sizeof st), "state after reopen");
	CHECK(fido2_file_store_ops.cred_count(&FS) == 2, "two records after reopen");
	for (i = 0; i < 2; i++) {
		fido2_file_store_ops.cred_get(&FS, i, &got);
		mkcred(&c, got.user_id_len == 5 ? "alice" : "bob", 1,
			got.user_id_len == 5 ? 3 : 2);
		CHECK(!memcmp(&got, &c, sizeof c), "record %d identical after reopen", i);
	}

	/* A record of the first layout (FAF2CRD1, a round-3 credential
	   written before FN-DSA) reads as round 3 with its key; one whose ID
	   names FN-DSA is refused as corrupt; the account's next credential
	   replaces it in the current layout. */
	{
		static uint8_t v2[FIDO2_CRED_SER_LEN], b[8 + FIDO2_CRED_SER_LEN_V1 + 32];
		uint8_t nb[33 + 5], h[32];
		char name[64];
		FILE *f;
		struct stat sb;
		int k, found = 0;
		mkcred(&c, "olga", 1, 4);
		CHECK(c.scheme == FIDO2_SCHEME_FALCON_R3, "olga is round 3");
		for (k = 0; k < 2; k++) {
			/* the store's file name: H(rpIdHash || len || user id) */
			memcpy(nb, c.rp_id_hash, 32);
			nb[32] = c.user_id_len;
			memcpy(nb + 33, c.user_id, c.user_id_len);
			fido2_sha256(nb, 33u + c.user_id_len, h);
			strcpy(name, "cred-");
			for (i = 0; i < 16; i++) sprintf(name + 5 + 2 * i, "%02x", h[i]);
			snprintf(path, sizeof path, "%s/%s.bin", dir, name);
			fido2_cred_serialize(&c, v2);
			memcpy(b, "FAF2CRD1", 8);
			memcpy(b + 8, v2, FIDO2_CRED_SER_HEAD);
			memcpy(b + 8 + FIDO2_CRED_SER_HEAD, c.sk, FA_PRIVKEY_SIZE(10));
			fido2_sha256(b, 8 + FIDO2_CRED_SER_LEN_V1, b + 8 + FIDO2_CRED_SER_LEN_V1);
			f = fopen(path, "wb");
			CHECK(f && fwrite(b, 1, sizeof b, f) == sizeof b, "write a v1 record");
			fclose(f);
			if (k == 0) {
				CHECK(fido2_file_store_open(&FS, dir) == 0 && FS.ncreds == 3,
					"v1 record loads (%s)", FS.err);
				for (i = 0; i < FS.ncreds; i++) {
					fido2_file_store_ops.cred_get(&FS, i, &got);
					found += !memcmp(&got, &c, sizeof c);
				}
				CHECK(found == 1, "v1 record: round 3, the key intact");
				c.id[0] = FIDO2_SCHEME_FNDSA;   /* next: an ID of the other scheme */
			} else {
				CHECK(fido2_file_store_open(&FS, dir) == -1
					&& strstr(FS.err, "corrupt record") && strstr(FS.err, path),
					"v1 record with an FN-DSA ID refused (%s)", FS.err);
			}
		}
		mkcred(&c, "olga", 1, 5);
		CHECK(c.scheme == FIDO2_SCHEME_FNDSA, "olga's next credential is FN-DSA");
		CHECK(fido2_file_store_ops.cred_put(&FS, &c) == 0
			&& stat(path, &sb) == 0 && sb.st_size == 8 + FIDO2_CRED_SER_LEN + 32
			&& fido2_file_store_open(&FS, dir) == 0 && FS.ncreds == 3,
			"replaced by a v2 record (%s)", FS.err);
		CHECK(unlink(path) == 0 && fido2_file_store_open(&FS, dir) == 0
			&& FS.ncreds == 2, "olga removed again");
	}

	/* A write killed before its rename leaves a tmp file: ignored, removed. */
	snprintf(path, sizeof path, "%s/cred-00000000000000000000000000000000.bin.tmp", dir);
	{
		FILE *f = fopen(path, "wb");
		fputs("partial", f);
		fclose(f);
	}
	CHECK(fido2_file_store_open(&FS, dir) == 0 && FS.ncreds == 2
		&& count_files(dir, ".tmp") == 0, "tmp file removed");

	/* Corruption anywhere in a record, or a truncation, is detected. */
	snprintf(cmd, sizeof cmd, "ls %s/cred-*.bin | head -n 1", dir);
	{
		FILE *p = popen(cmd, "r");
		CHECK(p && fgets(path, sizeof path, p) != NULL, "find a record");
		if (p) pclose(p);
		path[strcspn(path, "\n")] = 0;
	}
	{
		static const long offs[] = { 0, 9, 100, 300, 2000, 2600 };
		size_t k;
		struct stat sb;
		stat(path, &sb);
		for (k = 0; k < sizeof offs / sizeof offs[0]; k++) {
			long off = offs[k] < sb.st_size ? offs[k] : sb.st_size - 1;
			corrupt(path, off);
			CHECK(fido2_file_store_open(&FS, dir) == -1
				&& strstr(FS.err, "corrupt record") && strstr(FS.err, path),
				"flipped bit at %ld detected (%s)", off, FS.err);
			corrupt(path, off);
		}
		CHECK(fido2_file_store_open(&FS, dir) == 0, "restored record accepted");
		CHECK(truncate(path, sb.st_size - 1) == 0, "truncate");
		CHECK(fido2_file_store_open(&FS, dir) == -1, "truncated record detected");
		snprintf(cmd, sizeof cmd, "rm -f '%s'", path);
		CHECK(system(cmd) == 0, "remove corrupt record");
	}
	snprintf(path, sizeof path, "%s/state.bin", dir);
	corrupt(path, 20);
	CHECK(fido2_file_store_open(&FS, dir) == -1 && strstr(FS.err, "corrupt state"),
		"corrupt state detected");
	corrupt(path, 20);

	/* Records of another epoch while the state has no Reset in progress
	   (a partial restore): refused by name, nothing deleted. */
	CHECK(fido2_file_store_open(&FS, dir) == 0 && FS.ncreds == 1, "one record left");
	st.epoch = 2;
	CHECK(fido2_file_store_ops.save_state(&FS, &st) == 0, "state of epoch 2");
	CHECK(fido2_file_store_open(&FS, dir) == -1 && strstr(FS.err, "epoch 1")
		&& strstr(FS.err, "no Reset is in progress") && strstr(FS.err, "cred-"),
		"record of another epoch refused (%s)", FS.err);
	CHECK(count_files(dir, ".bin") == 2, "the record is still there");

	/* state.bin missing, records present: refused, naming state.bin;
	   nothing deleted, no new state made. */
	snprintf(path, sizeof path, "%s/state.bin", dir);
	snprintf(cmd, sizeof cmd, "mv '%s' '%s.saved'", path, path);
	CHECK(system(cmd) == 0, "move state.bin away");
	CHECK(fido2_file_store_open(&FS, dir) == -1 && strstr(FS.err, "state.bin is missing")
		&& strstr(FS.err, "1 credential record"), "records without state refused (%s)", FS.err);
	CHECK(count_files(dir, ".bin") == 1 && access(path, F_OK) != 0,
		"record kept, no state.bin made");
	snprintf(cmd, sizeof cmd, "mv '%s.saved' '%s'", path, path);
	CHECK(system(cmd) == 0, "state.bin back");

	/* Reset interrupted after its commit point: epoch 2 with the Reset
	   flag, the epoch-1 record still on disk -> skipped at open, wiped by
	   the authenticator's start, which then clears the flag. */
	st.flags = FIDO2_STATE_RESET_PENDING;
	CHECK(fido2_file_store_ops.save_state(&FS, &st) == 0, "commit new epoch, Reset pending");
	CHECK(fido2_file_store_open(&FS, dir) == 0 && FS.ncreds == 0, "stale record skipped");
	CHECK(count_files(dir, ".bin") == 2, "not deleted by the store itself");
	{
		static uint8_t tmp[FIDO2_TMP_SIZE];
		fido2_auth *a = malloc(sizeof *a);
		test_plat tp;
		test_plat_init(&tp, "store-reset");
		CHECK(fido2_auth_init(a, &fido2_file_store_ops, &FS, &test_platform, &tp,
			fa_backend_default(), tmp, sizeof tmp) == 0, "start finishes the Reset");
		CHECK(count_files(dir, ".bin") == 1, "only state.bin remains");
		CHECK(fido2_file_store_open(&FS, dir) == 0
			&& fido2_file_store_ops.load_state(&FS, &st2) == 0
			&& st2.flags == 0 && st2.epoch == 2, "flag cleared, epoch kept");
		free(a);
	}
	st.flags = 0;

	/* A state file of the first layout (FAF2STA1, 48 bytes + SHA-256)
	   loads with flags 0. */
	{
		uint8_t b[48 + 32];
		FILE *f;
		memcpy(b, "FAF2STA1", 8);
		memset(b + 8, 0xcd, 32);
		b[40] = 128; b[41] = b[42] = b[43] = 0;
		b[44] = 2; b[45] = b[46] = b[47] = 0;
		fido2_sha256(b, 48, b + 48);
		f = fopen(path, "wb");
		CHECK(f && fwrite(b, 1, sizeof b, f) == sizeof b, "write a v1 state");
		fclose(f);
		CHECK(fido2_file_store_open(&FS, dir) == 0
			&& fido2_file_store_ops.load_state(&FS, &st2) == 0 && st2.flags == 0
			&& st2.epoch == 2 && st2.counter_reserved == 128 && st2.master[0] == 0xcd,
			"v1 state loads (%s)", FS.err);
		CHECK(fido2_file_store_ops.save_state(&FS, &st) == 0, "rewritten as v2");
	}

	/* A write that fails names the file and the reason. */
	{
		char moved[760];
		snprintf(moved, sizeof moved, "%s.moved", dir);
		CHECK(rename(dir, moved) == 0, "move the directory away");
		CHECK(fido2_file_store_ops.save_state(&FS, &st) == -1 && FS.nerr == 1
			&& strstr(FS.err, "state.bin") && strstr(FS.err, "No such file"),
			"failed write explained (%s)", FS.err);
		CHECK(rename(moved, dir) == 0, "directory back");
	}

	/* Counter continuity through the authenticator and reopen. */
	{
		static uint8_t tmp[FIDO2_TMP_SIZE];
		fido2_auth *a = malloc(sizeof *a);
		test_plat tp;
		uint32_t before;
		test_plat_init(&tp, "store");
		CHECK(fido2_auth_init(a, &fido2_file_store_ops, &FS, &test_platform, &tp,
			fa_backend_default(), tmp, sizeof tmp) == 0, "auth on the file store");
		before = a->counter;
		CHECK(before == 64, "counter starts at the reservation (%u)", before);
		fido2_file_store_open(&FS, dir);
		CHECK(fido2_auth_init(a, &fido2_file_store_ops, &FS, &test_platform, &tp,
			fa_backend_default(), tmp, sizeof tmp) == 0 && a->counter >= before,
			"counter after reopen");
		free(a);
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0, "clean up");
	return T_DONE();
}
