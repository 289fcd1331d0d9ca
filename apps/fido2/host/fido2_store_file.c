/*
 * File-per-record durable store (see fido2_store_file.h).
 */
#define _GNU_SOURCE
#include "fido2_store_file.h"
#include "fido2_sha256.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STATE_MAGIC "FAF2STA2"
#define CRED_MAGIC  "FAF2CRD2"   /* fido2_cred_serialize's version 2 */
#define CRED_MAGIC1 "FAF2CRD1"   /* version 1 (round 3, before FN-DSA) */

static int
fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	int r;
	if (fd < 0) {
		return -1;
	}
	r = fsync(fd);
	close(fd);
	return r;
}

/* Writes data + SHA-256(data) to fs->dir/name atomically and durably.
   0, or -1 with fs->err naming the file and the reason (and fs->nerr
   counting the failures, for the daemon's log). */
static int
write_atomic(fido2_file_store *fs, const char *name, const uint8_t *data,
	size_t len)
{
	char tmp[600], dst[600];
	const char *step = "open";
	uint8_t sum[32];
	int fd, e;

	snprintf(tmp, sizeof tmp, "%s/%s.tmp", fs->dir, name);
	snprintf(dst, sizeof dst, "%s/%s", fs->dir, name);
	fido2_sha256(data, len, sum);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		goto fail;
	}
	step = "write";
	errno = ENOSPC;   /* a short write sets no errno: the disk is full */
	if (write(fd, data, len) != (ssize_t)len || write(fd, sum, 32) != 32) {
		goto fail_fd;
	}
	step = "fsync";
	if (fsync(fd) != 0) {
		goto fail_fd;
	}
	step = "close";
	if (close(fd) != 0) {
		fd = -1;
		goto fail_fd;
	}
	step = "rename";
	if (rename(tmp, dst) != 0) {
		fd = -1;
		goto fail_fd;
	}
	step = "fsync the directory of";
	if (fsync_dir(fs->dir) != 0) {
		goto fail;
	}
	return 0;
fail_fd:
	e = errno;
	if (fd >= 0) {
		close(fd);
	}
	unlink(tmp);
	errno = e;
fail:
	snprintf(fs->err, sizeof fs->err, "cannot %s %s: %s", step, dst,
		strerror(errno));
	fs->nerr++;
	return -1;
}

/* Reads path (exactly len + 32 bytes) and checks its checksum.
   0 ok, 1 absent, -1 wrong size or checksum. */
static int
read_checked(const char *path, uint8_t *data, size_t len)
{
	uint8_t sum[32], want[32], extra;
	int fd = open(path, O_RDONLY);
	ssize_t r;
	if (fd < 0) {
		return errno == ENOENT ? 1 : -1;
	}
	r = read(fd, data, len);
	if (r != (ssize_t)len || read(fd, sum, 32) != 32 || read(fd, &extra, 1) != 0) {
		close(fd);
		return -1;
	}
	close(fd);
	fido2_sha256(data, len, want);
	return fido2_ct_equal(sum, want, 32) ? 0 : -1;
}

/* Fixed little-endian layouts (independent of struct padding). The state
   file: STATE_MAGIC, master(32), counter_reserved, epoch, flags (u32 LE);
   a file of the first version (STATE_MAGIC1, without flags) is read with
   flags 0. */
#define STATE_MAGIC1 "FAF2STA1"
#define STATE_LEN1 (8 + 32 + 4 + 4)
#define STATE_LEN (STATE_LEN1 + 4)
#define CRED_LEN (8 + FIDO2_CRED_SER_LEN)
#define CRED_LEN1 (8 + FIDO2_CRED_SER_LEN_V1)

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8)
		| ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* A credential file: CRED_MAGIC, then the core's serialization (version
   2); a file of version 1 (CRED_MAGIC1, CRED_LEN1 bytes: a round-3
   credential written before FN-DSA) is read as such, and stays until the
   account's credential is replaced. */
static void
cred_encode(const fido2_cred *c, uint8_t *b)
{
	memcpy(b, CRED_MAGIC, 8);
	fido2_cred_serialize(c, b + 8);
}

static int
cred_decode(fido2_cred *c, const uint8_t *b, size_t len)
{
	if (memcmp(b, len == CRED_LEN1 ? CRED_MAGIC1 : CRED_MAGIC, 8) != 0) {
		return -1;
	}
	memset(c, 0, sizeof *c);
	return fido2_cred_deserialize(c, b + 8, len - 8);
}

/* File name of a record: hash of (rpIdHash, user handle). */
static void
cred_name(const fido2_cred *c, char name[64])
{
	uint8_t buf[32 + FIDO2_USER_ID_MAX + 1], h[32];
	int i;
	memcpy(buf, c->rp_id_hash, 32);
	buf[32] = c->user_id_len;
	memcpy(buf + 33, c->user_id, c->user_id_len);
	fido2_sha256(buf, 33u + c->user_id_len, h);
	strcpy(name, "cred-");
	for (i = 0; i < 16; i++) {
		sprintf(name + 5 + 2 * i, "%02x", h[i]);
	}
	strcat(name, ".bin");
}

static int
fs_load_state(void *user, fido2_dev_state *st)
{
	fido2_file_store *fs = user;
	uint8_t b[STATE_LEN];
	char path[600];
	struct stat sb;
	int r, v1;
	snprintf(path, sizeof path, "%s/state.bin", fs->dir);
	if (stat(path, &sb) != 0) {
		if (errno == ENOENT) {
			return 1;
		}
		snprintf(fs->err, sizeof fs->err, "%s: %s", path, strerror(errno));
		return -1;
	}
	v1 = sb.st_size == STATE_LEN1 + 32;
	r = read_checked(path, b, v1 ? STATE_LEN1 : STATE_LEN);
	if (r == 1) {
		snprintf(fs->err, sizeof fs->err, "%s: vanished while being read", path);
		return -1;
	}
	if (r != 0 || memcmp(b, v1 ? STATE_MAGIC1 : STATE_MAGIC, 8) != 0) {
		snprintf(fs->err, sizeof fs->err, "%s: corrupt state file (wrong"
			" size, magic or checksum): restore it from a backup; the"
			" key does not start without it", path);
		return -1;
	}
	memcpy(st->master, b + 8, 32);
	st->counter_reserved = get32(b + 40);
	st->epoch = get32(b + 44);
	st->flags = v1 ? 0 : get32(b + 48);
	fido2_wipe(b, sizeof b);
	fs->epoch = st->epoch;
	fs->flags = st->flags;
	return 0;
}

static int
fs_save_state(void *user, const fido2_dev_state *st)
{
	fido2_file_store *fs = user;
	uint8_t b[STATE_LEN];
	int r;
	memcpy(b, STATE_MAGIC, 8);
	memcpy(b + 8, st->master, 32);
	put32(b + 40, st->counter_reserved);
	put32(b + 44, st->epoch);
	put32(b + 48, st->flags);
	r = write_atomic(fs, "state.bin", b, sizeof b);
	fido2_wipe(b, sizeof b);
	if (r == 0) {
		fs->epoch = st->epoch;
		fs->flags = st->flags;
	}
	return r;
}

static int
fs_cred_count(void *user)
{
	return ((fido2_file_store *)user)->ncreds;
}

static int
fs_cred_get(void *user, int idx, fido2_cred *c)
{
	fido2_file_store *fs = user;
	if (idx < 0 || idx >= fs->ncreds) {
		return -1;
	}
	*c = fs->creds[idx];
	return 0;
}

static int
same_account(const fido2_cred *a, const fido2_cred *b)
{
	return memcmp(a->rp_id_hash, b->rp_id_hash, 32) == 0
		&& a->user_id_len == b->user_id_len
		&& memcmp(a->user_id, b->user_id, a->user_id_len) == 0;
}

static int
fs_cred_put(void *user, const fido2_cred *c)
{
	fido2_file_store *fs = user;
	static uint8_t b[CRED_LEN];
	char name[64];
	int i, slot = -1, r;

	for (i = 0; i < fs->ncreds; i++) {
		if (same_account(&fs->creds[i], c)) {
			slot = i;
		}
	}
	if (slot < 0 && fs->ncreds >= FIDO2_FILE_STORE_MAX) {
		return FIDO2_STORE_FULL;
	}
	cred_encode(c, b);
	cred_name(c, name);
	r = write_atomic(fs, name, b, sizeof b);
	fido2_wipe(b, sizeof b);
	if (r != 0) {
		return -1;
	}
	if (slot < 0) {
		slot = fs->ncreds++;
	}
	fs->creds[slot] = *c;
	return 0;
}

static int
is_cred_file(const char *n)
{
	size_t l = strlen(n);
	return l == 5 + 32 + 4 && strncmp(n, "cred-", 5) == 0
		&& strcmp(n + l - 4, ".bin") == 0;
}

static int
fs_wipe(void *user)
{
	fido2_file_store *fs = user;
	DIR *d = opendir(fs->dir);
	struct dirent *e;
	char path[600];
	if (d == NULL) {
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (is_cred_file(e->d_name)) {
			snprintf(path, sizeof path, "%s/%s", fs->dir, e->d_name);
			if (unlink(path) != 0 && errno != ENOENT) {
				snprintf(fs->err, sizeof fs->err, "cannot remove"
					" %s: %s", path, strerror(errno));
				fs->nerr++;
				closedir(d);
				return -1;
			}
		}
	}
	closedir(d);
	fido2_wipe(fs->creds, sizeof fs->creds);
	fs->ncreds = 0;
	if (fsync_dir(fs->dir) != 0) {
		snprintf(fs->err, sizeof fs->err, "cannot fsync %s: %s", fs->dir,
			strerror(errno));
		fs->nerr++;
		return -1;
	}
	return 0;
}

const fido2_store_ops fido2_file_store_ops = {
	fs_load_state, fs_save_state, fs_cred_count, fs_cred_get, fs_cred_put,
	fs_wipe
};

/* Start-up check that DIR takes a write as large as a credential record:
   a read-only or full directory is refused now, with the reason, instead
   of failing every later request. */
static int
probe_writable(fido2_file_store *fs)
{
	static uint8_t b[CRED_LEN];
	int r;
	memset(b, 0, sizeof b);
	r = write_atomic(fs, "write-probe", b, sizeof b);
	if (r == 0) {
		char path[600];
		snprintf(path, sizeof path, "%s/write-probe", fs->dir);
		if (unlink(path) != 0) {
			snprintf(fs->err, sizeof fs->err, "cannot remove %s: %s",
				path, strerror(errno));
			return -1;
		}
	}
	return r;
}

int
fido2_file_store_open(fido2_file_store *fs, const char *dir)
{
	DIR *d;
	struct dirent *e;
	char path[600], stale[600];
	fido2_dev_state st;
	static uint8_t b[CRED_LEN];
	struct stat sb;
	size_t len;
	int r, have_state, orphans = 0, stale_epoch = 0;
	uint32_t rec_epoch = 0;

	memset(fs, 0, sizeof *fs);
	if (strlen(dir) >= sizeof fs->dir - 64) {
		snprintf(fs->err, sizeof fs->err, "state directory name too long");
		return -1;
	}
	strcpy(fs->dir, dir);
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(fs->err, sizeof fs->err, "cannot create %s: %s", dir,
			strerror(errno));
		return -1;
	}
	r = fs_load_state(fs, &st);
	if (r < 0) {
		return -1;
	}
	have_state = r == 0;
	fido2_wipe(&st, sizeof st);
	d = opendir(dir);
	if (d == NULL) {
		snprintf(fs->err, sizeof fs->err, "cannot read %s: %s", dir,
			strerror(errno));
		return -1;
	}
	stale[0] = 0;
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);
		fido2_cred *c = &fs->creds[fs->ncreds];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (l > 4 && strcmp(e->d_name + l - 4, ".tmp") == 0) {
			/* A write interrupted before its rename: never
			   acknowledged, not a record. */
			if (unlink(path) != 0) {
				snprintf(fs->err, sizeof fs->err, "cannot remove"
					" %s: %s", path, strerror(errno));
				closedir(d);
				return -1;
			}
			continue;
		}
		if (!is_cred_file(e->d_name)) {
			continue;
		}
		if (!have_state) {
			orphans++;
			continue;
		}
		len = stat(path, &sb) == 0 && sb.st_size == CRED_LEN1 + 32
			? CRED_LEN1 : CRED_LEN;
		if (read_checked(path, b, len) != 0
			|| cred_decode(c, b, len) != 0) {
			snprintf(fs->err, sizeof fs->err, "%s: corrupt record"
				" (wrong size, magic or checksum): restore it from"
				" a backup or move it out of %s", path, dir);
			closedir(d);
			fido2_wipe(b, sizeof b);
			return -1;
		}
		if (c->epoch == fs->epoch
			&& !(fs->flags & FIDO2_STATE_RESET_PENDING)) {
			if (fs->ncreds >= FIDO2_FILE_STORE_MAX - 1) {
				snprintf(fs->err, sizeof fs->err, "%s: too many"
					" records", dir);
				closedir(d);
				fido2_wipe(b, sizeof b);
				return -1;
			}
			fs->ncreds++;
		} else if (c->epoch != fs->epoch
			&& (fs->flags & FIDO2_STATE_RESET_PENDING)) {
			/* Left by a Reset that committed (the state says so)
			   and did not finish its wipe: the start finishes it. */
			fido2_wipe(c, sizeof *c);
		} else if (!stale[0]) {
			snprintf(stale, sizeof stale, "%s", path);
			rec_epoch = c->epoch;
			stale_epoch = 1;
			fido2_wipe(c, sizeof *c);
		}
	}
	closedir(d);
	fido2_wipe(b, sizeof b);
	if (orphans > 0) {
		snprintf(fs->err, sizeof fs->err, "%s/state.bin is missing but %s"
			" holds %d credential record(s) (cred-*.bin): refusing to"
			" start, which would make a new device secret and lose"
			" every credential. Restore state.bin from the backup the"
			" records came with; or, to start an empty key and give"
			" them up, move the cred-*.bin files out of %s", dir, dir,
			orphans, dir);
		return -1;
	}
	if (stale_epoch) {
		snprintf(fs->err, sizeof fs->err, "%s is of device epoch %u but"
			" %s/state.bin is at epoch %u%s: the state and the records"
			" do not belong together (a partial restore?). Restore the"
			" directory as one piece, or move the record out", stale,
			(unsigned)rec_epoch, dir, (unsigned)fs->epoch,
			(fs->flags & FIDO2_STATE_RESET_PENDING)
			? " with a Reset in progress" : " and no Reset is in progress");
		return -1;
	}
	if (fsync_dir(dir) != 0) {
		snprintf(fs->err, sizeof fs->err, "cannot fsync %s: %s", dir,
			strerror(errno));
		return -1;
	}
	return probe_writable(fs);
}
