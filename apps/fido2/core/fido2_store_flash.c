/*
 * Flash-page store (see fido2_store_flash.h). Freestanding.
 */
#include "fido2_store_flash.h"
#include "fido2_sha256.h"

#define T_STATE 1
#define T_CRED  2   /* version-1 credential (before FN-DSA): read only */
#define T_WIPE  3
#define T_CRED2 4   /* version-2 credential (scheme field; written) */

#define BANK_HDR 16u
#define REC_HDR  8u
/* State payload: master(32), counter_reserved, epoch, flags (u32 LE); a
   record of the first layout (40 bytes, no flags) reads with flags 0. */
#define STATE_LEN1 40u
#define STATE_LEN 44u
#define CRED_LEN FIDO2_CRED_SER_LEN
#define CRED_LEN1 FIDO2_CRED_SER_LEN_V1
typedef char fido2_flash_rec_fits[(CRED_LEN <= sizeof ((fido2_flash_store *)0)->rec
	&& CRED_LEN <= sizeof ((fido2_flash_store *)0)->put_buf) ? 1 : -1];

static const uint8_t BANK_MAGIC[8] = { 'F', 'A', '2', 'B', 'A', 'N', 'K', '1' };
static const uint8_t REC_MAGIC[4] = { 'F', 'A', '2', 'R' };
static const uint8_t ZERO4[4] = { 0, 0, 0, 0 };

static uint32_t
bank_size(const fido2_flash *fl)
{
	return (fl->npages / 2) * fl->page_size;
}

static uint32_t
bank_base(const fido2_flash *fl, uint32_t bank)
{
	return bank * bank_size(fl);
}

/* Record length on flash for a payload of n bytes (8-byte aligned). */
static uint32_t
rec_size(uint32_t n)
{
	return (REC_HDR + n + 32 + 4 + 7) & ~7u;
}

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

/* Account key of a serialized credential: H(rpIdHash | len | user id). */
static void
account_key(const uint8_t *payload, uint8_t key[32])
{
	fido2_sha256_ctx sc;
	uint8_t ulen = payload[FIDO2_CRED_ID_LEN + 32 + FIDO2_USER_ID_MAX
		+ 2 * FIDO2_NAME_MAX];
	if (ulen > FIDO2_USER_ID_MAX) {
		ulen = FIDO2_USER_ID_MAX;
	}
	fido2_sha256_init(&sc);
	fido2_sha256_update(&sc, payload + FIDO2_CRED_ID_LEN, 32);
	fido2_sha256_update(&sc, &ulen, 1);
	fido2_sha256_update(&sc, payload + FIDO2_CRED_ID_LEN + 32, ulen);
	fido2_sha256_final(&sc, key);
}

static uint32_t
payload_epoch(const uint8_t *payload)
{
	return get32(payload + FIDO2_CRED_ID_LEN + 32 + FIDO2_USER_ID_MAX
		+ 2 * FIDO2_NAME_MAX + 4);
}

/* Writes one committed record at absolute address addr: everything but
   the commit word, then the commit word. */
static int
write_record(fido2_flash_store *fs, uint32_t addr, uint16_t type,
	const uint8_t *payload, uint32_t n)
{
	const fido2_flash *fl = fs->fl;
	uint8_t hdr[REC_HDR], sum[32];
	fido2_sha256_ctx sc;
	fido2_memcpy(hdr, REC_MAGIC, 4);
	hdr[4] = (uint8_t)type; hdr[5] = (uint8_t)(type >> 8);
	hdr[6] = (uint8_t)n; hdr[7] = (uint8_t)(n >> 8);
	fido2_sha256_init(&sc);
	fido2_sha256_update(&sc, hdr, REC_HDR);
	fido2_sha256_update(&sc, payload, n);
	fido2_sha256_final(&sc, sum);
	if (fl->program(fl->user, addr, hdr, REC_HDR) != 0
		|| (n > 0 && fl->program(fl->user, addr + REC_HDR, payload, n) != 0)
		|| fl->program(fl->user, addr + REC_HDR + n, sum, 32) != 0
		|| fl->program(fl->user, addr + REC_HDR + n + 32, ZERO4, 4) != 0) {
		return -1;
	}
	return 0;
}

/* Reads and checks the record at bank offset off; payload into fs->rec.
   Returns the record length, or 0 if there is no committed record. */
static uint32_t
read_record(fido2_flash_store *fs, uint32_t bank, uint32_t off,
	uint16_t *type, uint32_t *n)
{
	const fido2_flash *fl = fs->fl;
	uint32_t base = bank_base(fl, bank), bs = bank_size(fl), len;
	uint8_t hdr[REC_HDR], sum[32], want[32], commit[4];
	fido2_sha256_ctx sc;

	if (off + REC_HDR > bs || fl->read(fl->user, base + off, hdr, REC_HDR) != 0
		|| !fido2_ct_equal(hdr, REC_MAGIC, 4)) {
		return 0;
	}
	*type = (uint16_t)(hdr[4] | (hdr[5] << 8));
	len = (uint32_t)(hdr[6] | (hdr[7] << 8));
	if (len > sizeof fs->rec || off + rec_size(len) > bs) {
		return 0;
	}
	if (fl->read(fl->user, base + off + REC_HDR, fs->rec, len) != 0
		|| fl->read(fl->user, base + off + REC_HDR + len, sum, 32) != 0
		|| fl->read(fl->user, base + off + REC_HDR + len + 32, commit, 4) != 0
		|| !fido2_ct_equal(commit, ZERO4, 4)) {
		return 0;
	}
	fido2_sha256_init(&sc);
	fido2_sha256_update(&sc, hdr, REC_HDR);
	fido2_sha256_update(&sc, fs->rec, len);
	fido2_sha256_final(&sc, want);
	if (!fido2_ct_equal(sum, want, 32)) {
		return 0;
	}
	*n = len;
	return rec_size(len);
}

static int
find_slot(const fido2_flash_store *fs, const uint8_t key[32])
{
	int i;
	for (i = 0; i < fs->ncreds; i++) {
		if (fido2_ct_equal(fs->cred_key[i], key, 32)) {
			return i;
		}
	}
	return -1;
}

/* Replays the live bank's log into the RAM index. */
static int
replay(fido2_flash_store *fs)
{
	const fido2_flash *fl = fs->fl;
	uint32_t off = BANK_HDR, bs = bank_size(fl), n, rl, i;
	uint32_t epochs[FIDO2_FLASH_MAX_CREDS];
	uint16_t type;
	uint8_t buf[64];
	int k;

	fs->have_state = 0;
	fs->ncreds = 0;
	while ((rl = read_record(fs, fs->bank, off, &type, &n)) != 0) {
		if (type == T_STATE && (n == STATE_LEN || n == STATE_LEN1)) {
			fido2_memcpy(fs->st.master, fs->rec, 32);
			fs->st.counter_reserved = get32(fs->rec + 32);
			fs->st.epoch = get32(fs->rec + 36);
			fs->st.flags = n == STATE_LEN ? get32(fs->rec + 40) : 0;
			fs->have_state = 1;
		} else if ((type == T_CRED2 && n == CRED_LEN)
			|| (type == T_CRED && n == CRED_LEN1)) {
			uint8_t key[32];
			account_key(fs->rec, key);
			k = find_slot(fs, key);
			if (k < 0) {
				if (fs->ncreds >= FIDO2_FLASH_MAX_CREDS) {
					return -1;   /* cannot happen: puts are bounded */
				}
				k = fs->ncreds++;
				fido2_memcpy(fs->cred_key[k], key, 32);
			}
			fs->cred_addr[k] = bank_base(fl, fs->bank) + off + REC_HDR;
			fs->cred_v1[k] = type == T_CRED;
			epochs[k] = payload_epoch(fs->rec);
		} else if (type == T_WIPE) {
			fs->ncreds = 0;
		}
		off += rl;
	}
	fs->head = off;
	/* Anything but erased bytes after the log: a torn write. */
	fs->dirty = 0;
	for (i = off; i < bs && !fs->dirty; i += sizeof buf) {
		uint32_t m = bs - i < sizeof buf ? bs - i : (uint32_t)sizeof buf, j;
		if (fl->read(fl->user, bank_base(fl, fs->bank) + i, buf, m) != 0) {
			return -1;
		}
		for (j = 0; j < m; j++) {
			if (buf[j] != 0xff) {
				fs->dirty = 1;
			}
		}
	}
	/* Records of an older epoch are left out only while the state says
	   a Reset is in progress (cut between its commit and its wipe; the
	   authenticator's start finishes it). Anything else that does not
	   belong together is refused, never repaired: records without a
	   state, a record of another epoch without a Reset in progress, a
	   record of the new epoch with one. */
	if (!fs->have_state) {
		if (fs->ncreds > 0) {
			fs->err = "credential records without a device state";
			return -2;
		}
	} else {
		int w = 0;
		int pending = (fs->st.flags & FIDO2_STATE_RESET_PENDING) != 0;
		for (k = 0; k < fs->ncreds; k++) {
			if (epochs[k] == fs->st.epoch && !pending) {
				fs->cred_addr[w] = fs->cred_addr[k];
				fs->cred_v1[w] = fs->cred_v1[k];
				fido2_memcpy(fs->cred_key[w], fs->cred_key[k], 32);
				w++;
			} else if (!(epochs[k] != fs->st.epoch && pending)) {
				fs->err = pending
					? "a credential record of the new epoch while a Reset is in progress"
					: "a credential record of another device epoch and no Reset in progress";
				return -2;
			}
		}
		fs->ncreds = w;
	}
	return 0;
}

static int
write_bank_header(fido2_flash_store *fs, uint32_t bank, uint32_t gen)
{
	const fido2_flash *fl = fs->fl;
	uint8_t h[12];
	uint32_t p, first = bank * (fl->npages / 2);
	for (p = 0; p < fl->npages / 2; p++) {
		if (fl->erase(fl->user, first + p) != 0) {
			return -1;
		}
	}
	fido2_memcpy(h, BANK_MAGIC, 8);
	put32(h + 8, gen);
	return fl->program(fl->user, bank_base(fl, bank), h, 12);
}

static int
commit_bank(fido2_flash_store *fs, uint32_t bank)
{
	return fs->fl->program(fs->fl->user, bank_base(fs->fl, bank) + 12, ZERO4, 4);
}

/* Copies the live records into the other bank and switches to it. */
static int
compact(fido2_flash_store *fs)
{
	const fido2_flash *fl = fs->fl;
	uint32_t other = 1 - fs->bank, base = bank_base(fl, other), off = BANK_HDR;
	uint32_t naddr[FIDO2_FLASH_MAX_CREDS];
	int k;

	if (write_bank_header(fs, other, fs->generation + 1) != 0) {
		return -1;
	}
	if (fs->have_state) {
		fido2_memcpy(fs->rec, fs->st.master, 32);
		put32(fs->rec + 32, fs->st.counter_reserved);
		put32(fs->rec + 36, fs->st.epoch);
		put32(fs->rec + 40, fs->st.flags);
		if (write_record(fs, base + off, T_STATE, fs->rec, STATE_LEN) != 0) {
			return -1;
		}
		off += rec_size(STATE_LEN);
	}
	for (k = 0; k < fs->ncreds; k++) {
		/* each record as it is (a version-1 record stays one) */
		uint32_t n = fs->cred_v1[k] ? CRED_LEN1 : CRED_LEN;
		if (off + rec_size(n) > bank_size(fl)
			|| fl->read(fl->user, fs->cred_addr[k], fs->rec, n) != 0
			|| write_record(fs, base + off, fs->cred_v1[k] ? T_CRED : T_CRED2,
				fs->rec, n) != 0) {
			return -1;
		}
		naddr[k] = base + off + REC_HDR;
		off += rec_size(n);
	}
	if (commit_bank(fs, other) != 0) {
		return -1;
	}
	fs->bank = other;
	fs->generation++;
	fs->head = off;
	fs->dirty = 0;
	for (k = 0; k < fs->ncreds; k++) {
		fs->cred_addr[k] = naddr[k];
	}
	fido2_wipe(fs->rec, sizeof fs->rec);
	return 0;
}

/* Appends a committed record (payload in a separate buffer, not fs->rec
   which compaction uses). Returns its payload address, or 0 on error,
   1 if it does not fit even after compaction. */
static uint32_t
append(fido2_flash_store *fs, uint16_t type, const uint8_t *payload, uint32_t n)
{
	uint32_t addr;
	if (fs->dirty || fs->head + rec_size(n) > bank_size(fs->fl)) {
		if (compact(fs) != 0) {
			return 0;
		}
		if (fs->head + rec_size(n) > bank_size(fs->fl)) {
			return 1;
		}
	}
	addr = bank_base(fs->fl, fs->bank) + fs->head;
	if (write_record(fs, addr, type, payload, n) != 0) {
		/* Whatever reached the flash is torn: never append after it. */
		fs->dirty = 1;
		return 0;
	}
	fs->head += rec_size(n);
	return addr + REC_HDR;
}

/* 1 if the flash is erased (all 0xFF) except, possibly, the header of
   bank 0 without its commit word: a first format cut short. */
static int
blank_or_first_format(fido2_flash_store *fs)
{
	const fido2_flash *fl = fs->fl;
	uint32_t total = 2 * bank_size(fl), i, j, m;
	uint8_t buf[64];
	for (i = 0; i < total; i += m) {
		m = total - i < sizeof buf ? total - i : (uint32_t)sizeof buf;
		if (fl->read(fl->user, i, buf, m) != 0) {
			return 0;
		}
		for (j = (i == 0 && fido2_ct_equal(buf, BANK_MAGIC, 8)) ? 12 : 0;
			j < m; j++) {
			if (buf[j] != 0xff) {
				return 0;
			}
		}
	}
	return 1;
}

int
fido2_flash_store_mount(fido2_flash_store *fs, const fido2_flash *fl)
{
	uint8_t h[2][16];
	int ok[2], b;
	uint32_t gen[2];

	fido2_memset(fs, 0, sizeof *fs);
	fs->fl = fl;
	if (fl->npages < 2 || (fl->npages & 1) || (fl->page_size & 7)
		|| bank_size(fl) < BANK_HDR + rec_size(STATE_LEN) + rec_size(CRED_LEN)) {
		return -1;
	}
	for (b = 0; b < 2; b++) {
		if (fl->read(fl->user, bank_base(fl, (uint32_t)b), h[b], 16) != 0) {
			return -1;
		}
		ok[b] = fido2_ct_equal(h[b], BANK_MAGIC, 8)
			&& fido2_ct_equal(h[b] + 12, ZERO4, 4);
		gen[b] = get32(h[b] + 8);
	}
	if (!ok[0] && !ok[1]) {
		/* Blank flash (or a first format cut short): format bank 0.
		   Any other content without a committed bank is refused. */
		if (!blank_or_first_format(fs)) {
			fs->err = "no committed bank, and the flash is not blank";
			return -2;
		}
		if (write_bank_header(fs, 0, 1) != 0 || commit_bank(fs, 0) != 0) {
			return -1;
		}
		fs->bank = 0;
		fs->generation = 1;
		fs->head = BANK_HDR;
		return 0;
	}
	if (ok[0] && ok[1]) {
		b = (int32_t)(gen[1] - gen[0]) > 0 ? 1 : 0;
	} else {
		b = ok[1] ? 1 : 0;
	}
	fs->bank = (uint32_t)b;
	fs->generation = gen[b];
	return replay(fs);
}

/* ---- fido2_store_ops ---- */

static int
fl_load_state(void *user, fido2_dev_state *st)
{
	fido2_flash_store *fs = user;
	if (!fs->have_state) {
		return 1;
	}
	*st = fs->st;
	return 0;
}

static int
fl_save_state(void *user, const fido2_dev_state *st)
{
	fido2_flash_store *fs = user;
	uint8_t p[STATE_LEN];
	uint32_t r;
	fido2_memcpy(p, st->master, 32);
	put32(p + 32, st->counter_reserved);
	put32(p + 36, st->epoch);
	put32(p + 40, st->flags);
	r = append(fs, T_STATE, p, STATE_LEN);
	fido2_wipe(p, sizeof p);
	if (r <= 1) {
		return -1;
	}
	if (fs->have_state && st->epoch != fs->st.epoch) {
		/* A new epoch: records of the old one no longer count (the same
		   filter a mount applies). */
		fs->ncreds = 0;
	}
	fs->st = *st;
	fs->have_state = 1;
	return 0;
}

static int
fl_cred_count(void *user)
{
	return ((fido2_flash_store *)user)->ncreds;
}

static int
fl_cred_get(void *user, int idx, fido2_cred *c)
{
	fido2_flash_store *fs = user;
	uint32_t n;
	if (idx < 0 || idx >= fs->ncreds) {
		return -1;
	}
	n = fs->cred_v1[idx] ? CRED_LEN1 : CRED_LEN;
	if (fs->fl->read(fs->fl->user, fs->cred_addr[idx], fs->rec, n) != 0) {
		return -1;
	}
	fido2_memset(c, 0, sizeof *c);   /* padding too: records compare whole */
	if (fido2_cred_deserialize(c, fs->rec, n) != 0) {
		fido2_wipe(fs->rec, sizeof fs->rec);
		return -1;
	}
	fido2_wipe(fs->rec, sizeof fs->rec);
	return 0;
}

static int
fl_cred_put(void *user, const fido2_cred *c)
{
	fido2_flash_store *fs = user;
	uint8_t *p = fs->put_buf;
	uint8_t key[32];
	uint32_t addr;
	int k;

	fido2_cred_serialize(c, p);
	account_key(p, key);
	k = find_slot(fs, key);
	if (k < 0 && fs->ncreds >= FIDO2_FLASH_MAX_CREDS) {
		fido2_wipe(p, CRED_LEN);
		return FIDO2_STORE_FULL;
	}
	addr = append(fs, T_CRED2, p, CRED_LEN);
	fido2_wipe(p, CRED_LEN);
	if (addr == 0) {
		return -1;
	}
	if (addr == 1) {
		return FIDO2_STORE_FULL;
	}
	if (k < 0) {
		k = fs->ncreds++;
		fido2_memcpy(fs->cred_key[k], key, 32);
	}
	fs->cred_addr[k] = addr;
	fs->cred_v1[k] = 0;
	return 0;
}

static int
fl_wipe(void *user)
{
	fido2_flash_store *fs = user;
	if (append(fs, T_WIPE, NULL, 0) <= 1) {
		return -1;
	}
	fs->ncreds = 0;
	return 0;
}

const fido2_store_ops fido2_flash_store_ops = {
	fl_load_state, fl_save_state, fl_cred_count, fl_cred_get, fl_cred_put,
	fl_wipe
};
