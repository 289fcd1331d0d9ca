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

#define STATE_MAGIC "FAF2STA1"
#define CRED_MAGIC  "FAF2CRD1"

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

/* Writes data + SHA-256(data) to dir/name atomically and durably. */
static int
write_atomic(const char *dir, const char *name, const uint8_t *data,
	size_t len)
{
	char tmp[600], dst[600];
	uint8_t sum[32];
	int fd;
	ssize_t w;

	snprintf(tmp, sizeof tmp, "%s/%s.tmp", dir, name);
	snprintf(dst, sizeof dst, "%s/%s", dir, name);
	fido2_sha256(data, len, sum);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		return -1;
	}
	w = write(fd, data, len);
	if (w != (ssize_t)len || write(fd, sum, 32) != 32 || fsync(fd) != 0) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (close(fd) != 0 || rename(tmp, dst) != 0) {
		unlink(tmp);
		return -1;
	}
	return fsync_dir(dir);
}

/* Reads dir/name (exactly len + 32 bytes) and checks its checksum.
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

/* Fixed little-endian layouts (independent of struct padding). */
#define STATE_LEN (8 + 32 + 4 + 4)
#define CRED_LEN (8 + FIDO2_CRED_SER_LEN)

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

/* A credential file: CRED_MAGIC, then the core's serialization. */
static void
cred_encode(const fido2_cred *c, uint8_t *b)
{
	memcpy(b, CRED_MAGIC, 8);
	fido2_cred_serialize(c, b + 8);
}

static int
cred_decode(fido2_cred *c, const uint8_t *b)
{
	if (memcmp(b, CRED_MAGIC, 8) != 0) {
		return -1;
	}
	return fido2_cred_deserialize(c, b + 8);
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
	int r;
	snprintf(path, sizeof path, "%s/state.bin", fs->dir);
	r = read_checked(path, b, sizeof b);
	if (r == 1) {
		return 1;
	}
	if (r != 0 || memcmp(b, STATE_MAGIC, 8) != 0) {
		snprintf(fs->err, sizeof fs->err, "%s: corrupt state file", path);
		return -1;
	}
	memcpy(st->master, b + 8, 32);
	st->counter_reserved = get32(b + 40);
	st->epoch = get32(b + 44);
	fido2_wipe(b, sizeof b);
	fs->epoch = st->epoch;
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
	r = write_atomic(fs->dir, "state.bin", b, sizeof b);
	fido2_wipe(b, sizeof b);
	if (r == 0) {
		fs->epoch = st->epoch;
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
	r = write_atomic(fs->dir, name, b, sizeof b);
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
			unlink(path);
		}
	}
	closedir(d);
	fido2_wipe(fs->creds, sizeof fs->creds);
	fs->ncreds = 0;
	return fsync_dir(fs->dir);
}

const fido2_store_ops fido2_file_store_ops = {
	fs_load_state, fs_save_state, fs_cred_count, fs_cred_get, fs_cred_put,
	fs_wipe
};

int
fido2_file_store_open(fido2_file_store *fs, const char *dir)
{
	DIR *d;
	struct dirent *e;
	char path[600];
	fido2_dev_state st;
	static uint8_t b[CRED_LEN];
	int r, have_state;

	memset(fs, 0, sizeof *fs);
	if (strlen(dir) >= sizeof fs->dir - 64) {
		snprintf(fs->err, sizeof fs->err, "state directory name too long");
		return -1;
	}
	strcpy(fs->dir, dir);
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(fs->err, sizeof fs->err, "%s: %s", dir, strerror(errno));
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
		snprintf(fs->err, sizeof fs->err, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (l > 4 && strcmp(e->d_name + l - 4, ".tmp") == 0) {
			/* A write interrupted before its rename: never acknowledged. */
			unlink(path);
			continue;
		}
		if (!is_cred_file(e->d_name)) {
			continue;
		}
		if (read_checked(path, b, sizeof b) != 0
			|| cred_decode(&fs->creds[fs->ncreds], b) != 0) {
			snprintf(fs->err, sizeof fs->err, "%s: corrupt record", path);
			closedir(d);
			return -1;
		}
		if (!have_state || fs->creds[fs->ncreds].epoch != fs->epoch) {
			/* Left by a Reset interrupted after its commit point. */
			unlink(path);
			continue;
		}
		if (fs->ncreds >= FIDO2_FILE_STORE_MAX - 1) {
			snprintf(fs->err, sizeof fs->err, "%s: too many records", dir);
			closedir(d);
			return -1;
		}
		fs->ncreds++;
	}
	closedir(d);
	fido2_wipe(b, sizeof b);
	return fsync_dir(dir) == 0 ? 0 : -1;
}
