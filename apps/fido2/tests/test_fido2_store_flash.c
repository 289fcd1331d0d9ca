/*
 * Flash-page store under power cuts. A simulated NOR flash (erase sets
 * 0xFF, program can only clear bits) runs a workload of state saves,
 * credential writes/replacements, Reset-like epoch changes and wipes; the
 * power is cut at the k-th flash operation (the cut operation is torn: a
 * random prefix of a program, a random part of an erase), for many k.
 * After each cut the store is mounted again and must hold exactly the
 * acknowledged data (or, for the one operation in flight, its old or new
 * value), with a state that never goes back. Then it must keep working.
 * Reset follows the core's protocol: the new epoch with
 * FIDO2_STATE_RESET_PENDING (commit), the wipe, the flag cleared. A flash
 * that is neither blank nor a committed bank, records without a state and
 * a record of another epoch without a Reset in progress are refused (-2,
 * with the reason) and the flash is left as it was. A credential record of
 * the first layout (type 2, before FN-DSA) reads as round-3 Falcon, is
 * kept as it is by compaction, and its account's next credential is
 * written in the current layout; one whose ID names another scheme is
 * refused by the decoder.
 */
#include "fido2_test_util.h"
#include "fido2_store_flash.h"
#include "fido2_sha256.h"

#define PS 2048u
#define NP 64u
static uint8_t FL[NP * PS];
static long ops_left = -1;   /* operations before the cut; -1: none */
static int cut;
static uint64_t rs = 1;
static long nops;

static uint32_t rnd(void)
{
	rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
	return (uint32_t)(rs >> 11);
}

static int f_read(void *u, uint32_t a, void *b, uint32_t n)
{
	(void)u;
	if (cut || (uint64_t)a + n > sizeof FL) return -1;
	memcpy(b, FL + a, n);
	return 0;
}
static int f_prog(void *u, uint32_t a, const void *b, uint32_t n)
{
	const uint8_t *p = b;
	uint32_t i, m = n;
	(void)u;
	if (cut || (uint64_t)a + n > sizeof FL) return -1;
	nops++;
	if (ops_left == 0) {
		m = n ? rnd() % n : 0;   /* torn: a prefix reaches the cells */
		cut = 1;
	} else if (ops_left > 0) {
		ops_left--;
	}
	for (i = 0; i < m; i++) FL[a + i] &= p[i];
	return cut ? -1 : 0;
}
static int f_erase(void *u, uint32_t page)
{
	uint32_t i, m = PS;
	(void)u;
	if (cut || page >= NP) return -1;
	nops++;
	if (ops_left == 0) {
		m = rnd() % PS;          /* torn: part of the page erased */
		cut = 1;
	} else if (ops_left > 0) {
		ops_left--;
	}
	for (i = 0; i < m; i++) FL[page * PS + i] = 0xff;
	return cut ? -1 : 0;
}
static const fido2_flash FLASH = { PS, NP, NULL, f_read, f_prog, f_erase };

/* ---- the model ---- */
#define ACC 6
typedef struct {
	int present[ACC];
	uint32_t version[ACC];
	fido2_dev_state st;
	int have_state;
} model;

static model ack;            /* acknowledged */
static model alt;            /* acknowledged + the in-flight operation */
static int inflight;

static void mk(fido2_cred *c, int acc, uint32_t version, uint32_t epoch)
{
	memset(c, 0, sizeof *c);
	memset(c->rp_id_hash, 0x40 + acc, 32);
	c->user_id_len = 4;
	memcpy(c->user_id, "user", 4);
	c->user_id[3] = (uint8_t)('0' + acc);
	memset(c->id, (int)version, sizeof c->id);
	/* both schemes and degrees; the ID's header bytes name them (the
	   decoder checks it), the key fills its scheme's size */
	c->scheme = (version & 1) ? FIDO2_SCHEME_FNDSA : FIDO2_SCHEME_FALCON_R3;
	c->logn = (acc & 1) ? 10 : 9;
	c->id[0] = c->scheme;
	c->id[1] = c->logn;
	c->epoch = epoch;
	c->created = version;
	memset(c->sk, (int)(version * 7 + acc), c->scheme == FIDO2_SCHEME_FNDSA
		? FA_FNDSA_PRIVKEY_SIZE(c->logn) : FA_PRIVKEY_SIZE(c->logn));
}

/* Programs a committed record of the given type and payload at the end of
   the live log (the store's record format, written here by hand: what an
   earlier firmware left). */
static void put_raw_record(fido2_flash_store *fs, uint16_t type, const uint8_t *p,
	uint32_t n)
{
	uint32_t addr = fs->bank * (NP / 2) * PS + fs->head, i;
	uint8_t hdr[8] = { 'F', 'A', '2', 'R', (uint8_t)type, (uint8_t)(type >> 8),
		(uint8_t)n, (uint8_t)(n >> 8) };
	uint8_t sum[32];
	fido2_sha256_ctx sc;
	fido2_sha256_init(&sc);
	fido2_sha256_update(&sc, hdr, 8);
	fido2_sha256_update(&sc, p, n);
	fido2_sha256_final(&sc, sum);
	for (i = 0; i < 8; i++) FL[addr + i] &= hdr[i];
	for (i = 0; i < n; i++) FL[addr + 8 + i] &= p[i];
	for (i = 0; i < 32; i++) FL[addr + 8 + n + i] &= sum[i];
	for (i = 0; i < 4; i++) FL[addr + 8 + n + 32 + i] = 0;
}

/* The version-1 layout of a round-3 credential (fido2_ctap2.h): the
   version-2 fields up to "created", then the round-3 key. */
static void v1_payload(const fido2_cred *c, uint8_t *out)
{
	static uint8_t v2[FIDO2_CRED_SER_LEN];
	fido2_cred_serialize(c, v2);
	memcpy(out, v2, FIDO2_CRED_SER_HEAD);
	memcpy(out + FIDO2_CRED_SER_HEAD, c->sk, FA_PRIVKEY_SIZE(10));
}

static void test_v1_record(fido2_flash_store *fs)
{
	static uint8_t p[FIDO2_CRED_SER_LEN_V1];
	fido2_dev_state st;
	fido2_cred old, got, c;
	int i, n, found;

	memset(FL, 0xff, sizeof FL);
	CHECK(fido2_flash_store_mount(fs, &FLASH) == 0, "v1: blank");
	memset(&st, 0, sizeof st);
	st.epoch = 1;
	CHECK(fido2_flash_store_ops.save_state(fs, &st) == 0, "v1: state");
	mk(&old, 2, 4, 1);   /* even version: round 3, account 2: logn 9 */
	CHECK(old.scheme == FIDO2_SCHEME_FALCON_R3, "v1: a round-3 credential");
	v1_payload(&old, p);
	put_raw_record(fs, 2, p, sizeof p);
	CHECK(fido2_flash_store_mount(fs, &FLASH) == 0
		&& fido2_flash_store_ops.cred_count(fs) == 1
		&& fido2_flash_store_ops.cred_get(fs, 0, &got) == 0
		&& !memcmp(&got, &old, sizeof got), "v1 record read as round 3, key intact");
	/* compaction (a torn tail forces one) keeps it as it is */
	fs->dirty = 1;
	mk(&c, 3, 7, 1);
	CHECK(fido2_flash_store_ops.cred_put(fs, &c) == 0, "v1: put with compaction");
	CHECK(fido2_flash_store_mount(fs, &FLASH) == 0 && fs->generation == 2
		&& fido2_flash_store_ops.cred_count(fs) == 2, "v1: compacted, remounted");
	for (i = 0, found = 0, n = fido2_flash_store_ops.cred_count(fs); i < n; i++) {
		fido2_flash_store_ops.cred_get(fs, i, &got);
		found += !memcmp(&got, &old, sizeof got) && fs->cred_v1[i];
		found += !memcmp(&got, &c, sizeof got) && !fs->cred_v1[i];
	}
	CHECK(found == 2, "v1 record kept as v1 by compaction, v2 beside it");
	/* the account's next credential (FN-DSA) replaces it in layout 2 */
	mk(&c, 2, 9, 1);
	CHECK(c.scheme == FIDO2_SCHEME_FNDSA, "v1: an FN-DSA replacement");
	CHECK(fido2_flash_store_ops.cred_put(fs, &c) == 0
		&& fido2_flash_store_mount(fs, &FLASH) == 0, "v1: replaced, remounted");
	for (i = 0, found = 0, n = fido2_flash_store_ops.cred_count(fs); i < n; i++) {
		fido2_flash_store_ops.cred_get(fs, i, &got);
		found += !memcmp(&got, &c, sizeof got) && !fs->cred_v1[i];
		found += fs->cred_v1[i];
	}
	CHECK(n == 2 && found == 1, "the replacement is a v2 record, no v1 left");
	/* a v1 record whose ID names FN-DSA: indexed, refused by the decoder */
	memset(FL, 0xff, sizeof FL);
	fido2_flash_store_mount(fs, &FLASH);
	fido2_flash_store_ops.save_state(fs, &st);
	old.id[0] = FIDO2_SCHEME_FNDSA;
	v1_payload(&old, p);
	put_raw_record(fs, 2, p, sizeof p);
	CHECK(fido2_flash_store_mount(fs, &FLASH) == 0
		&& fido2_flash_store_ops.cred_count(fs) == 1
		&& fido2_flash_store_ops.cred_get(fs, 0, &got) != 0,
		"a v1 record with an FN-DSA ID is never read as a credential");
}

/* Runs the workload; stops at the first failed operation (the cut). */
static void workload(fido2_flash_store *fs, int steps)
{
	fido2_cred c;
	int i;
	uint32_t version = 1;
	memset(&ack, 0, sizeof ack);
	inflight = 0;
	for (i = 0; i < steps; i++) {
		int op = (int)(rnd() % 10), r;
		alt = ack;
		inflight = 1;
		if (op < 3 || !ack.have_state) {
			/* Counter reservation (or first state). */
			alt.have_state = 1;
			if (!ack.have_state) { memset(alt.st.master, 0x5c, 32); alt.st.epoch = 1; }
			alt.st.counter_reserved += 64;
			r = fido2_flash_store_ops.save_state(fs, &alt.st);
		} else if (op < 9) {
			int a = (int)(rnd() % ACC);
			mk(&c, a, ++version, ack.st.epoch);
			alt.present[a] = 1;
			alt.version[a] = version;
			r = fido2_flash_store_ops.cred_put(fs, &c);
		} else {
			/* Reset: new epoch committed with the Reset flag (the old
			   records no longer count), the wipe, the flag cleared. */
			alt.st.epoch++;
			alt.st.flags = FIDO2_STATE_RESET_PENDING;
			memset(alt.present, 0, sizeof alt.present);
			r = fido2_flash_store_ops.save_state(fs, &alt.st);
			if (r == 0) {
				ack = alt;
				r = fido2_flash_store_ops.wipe(fs);
			}
			if (r == 0) {
				alt.st.flags = 0;
				r = fido2_flash_store_ops.save_state(fs, &alt.st);
			}
		}
		if (r != 0) {
			return;
		}
		ack = alt;
		inflight = 0;
	}
}

static int matches(fido2_flash_store *fs, const model *m)
{
	fido2_dev_state st;
	fido2_cred c, want;
	int a, i, n = fido2_flash_store_ops.cred_count(fs);
	int seen[ACC] = { 0 };
	if ((fido2_flash_store_ops.load_state(fs, &st) == 0) != m->have_state) return 0;
	if (m->have_state && memcmp(&st, &m->st, sizeof st) != 0) return 0;
	for (i = 0; i < n; i++) {
		if (fido2_flash_store_ops.cred_get(fs, i, &c) != 0) return 0;
		a = c.user_id[3] - '0';
		if (a < 0 || a >= ACC || !m->present[a] || seen[a]) return 0;
		seen[a] = 1;
		mk(&want, a, m->version[a], m->st.epoch);
		if (memcmp(&c, &want, sizeof c) != 0) return 0;
	}
	for (a = 0; a < ACC; a++) {
		if (m->present[a] && !seen[a]) return 0;
	}
	return 1;
}

/* Per-account check allowing the in-flight operation to have landed or
   not: the whole store equals either model, except that for a cut inside
   a Reset the state and the wipe are separate operations. */
static int consistent(fido2_flash_store *fs)
{
	return matches(fs, &ack) || (inflight && matches(fs, &alt));
}

int main(void)
{
	static fido2_flash_store fs;
	long total, k, runs = 0, bad = 0, step;
	int steps = 300;

	/* Neither blank nor a committed bank: refused, nothing written. */
	memset(FL, 0x00, sizeof FL);
	nops = 0;
	CHECK(fido2_flash_store_mount(&fs, &FLASH) == -2 && fs.err != NULL
		&& strstr(fs.err, "not blank") && nops == 0 && FL[0] == 0 && FL[sizeof FL - 1] == 0,
		"garbage flash refused, not formatted");

	/* Dry run: count the flash operations of the workload. */
	memset(FL, 0xff, sizeof FL);
	rs = 12345;
	nops = 0;
	CHECK(fido2_flash_store_mount(&fs, &FLASH) == 0, "format");
	workload(&fs, steps);
	total = nops;
	CHECK(!inflight && total > 500, "workload ran (%ld flash operations)", total);
	CHECK(fs.generation > 3, "compactions happened (generation %u)", fs.generation);
	CHECK(fido2_flash_store_mount(&fs, &FLASH) == 0 && matches(&fs, &ack),
		"clean remount holds everything");

	step = total / 700 + 1;
	for (k = 0; k < total; k += (k < 300 ? 1 : step)) {
		memset(FL, 0xff, sizeof FL);
		cut = 0;
		ops_left = -1;
		rs = 12345;
		CHECK(fido2_flash_store_mount(&fs, &FLASH) == 0, "mount blank");
		ops_left = k;
		workload(&fs, steps);
		/* Power back. */
		cut = 0;
		ops_left = -1;
		runs++;
		if (fido2_flash_store_mount(&fs, &FLASH) != 0 || !consistent(&fs)) {
			bad++;
			if (bad < 5) fprintf(stderr, "cut at operation %ld: store inconsistent (inflight %d, ack state %d/%u, store state %d/%u, n %d)\n", k, inflight, ack.have_state, ack.st.counter_reserved, fs.have_state, fs.st.counter_reserved, fs.ncreds);
			continue;
		}
		/* And it keeps working: one more write survives a remount. */
		{
			fido2_cred c, got;
			int i, found = 0;
			uint32_t ep = ack.have_state ? fs.st.epoch : 0;
			if (!ack.have_state) {
				fido2_dev_state st;
				memset(&st, 0, sizeof st);
				st.epoch = 9;
				ep = 9;
				if (fido2_flash_store_ops.save_state(&fs, &st) != 0) { bad++; continue; }
			}
			if (ack.have_state && (fs.st.flags & FIDO2_STATE_RESET_PENDING)) {
				/* cut inside a Reset: the core's start finishes it */
				fido2_dev_state st = fs.st;
				st.flags = 0;
				if (fido2_flash_store_ops.wipe(&fs) != 0
					|| fido2_flash_store_ops.save_state(&fs, &st) != 0) { bad++; continue; }
			}
			mk(&c, 0, 999, ep);
			if (fido2_flash_store_ops.cred_put(&fs, &c) != 0
				|| fido2_flash_store_mount(&fs, &FLASH) != 0) { bad++; continue; }
			for (i = 0; i < fido2_flash_store_ops.cred_count(&fs); i++) {
				fido2_flash_store_ops.cred_get(&fs, i, &got);
				found |= !memcmp(&got, &c, sizeof c);
			}
			if (!found) bad++;
		}
	}
	CHECK(bad == 0, "%ld of %ld power cuts left a wrong store", bad, runs);
	printf("%ld power cuts over %ld flash operations\n", runs, total);

	/* Records without a state, and a record of another epoch without a
	   Reset in progress: refused with the reason, the flash unchanged. */
	{
		static uint8_t snap[sizeof FL];
		fido2_dev_state st;
		fido2_cred c;
		memset(FL, 0xff, sizeof FL);
		CHECK(fido2_flash_store_mount(&fs, &FLASH) == 0, "blank for the refusals");
		mk(&c, 1, 7, 1);
		CHECK(fido2_flash_store_ops.cred_put(&fs, &c) == 0, "a record without state");
		memcpy(snap, FL, sizeof FL);
		nops = 0;
		CHECK(fido2_flash_store_mount(&fs, &FLASH) == -2 && fs.err != NULL
			&& strstr(fs.err, "without a device state") && nops == 0
			&& memcmp(snap, FL, sizeof FL) == 0, "records without state refused");
		memset(FL, 0xff, sizeof FL);
		fido2_flash_store_mount(&fs, &FLASH);
		memset(&st, 0, sizeof st);
		st.epoch = 1;
		CHECK(fido2_flash_store_ops.save_state(&fs, &st) == 0
			&& fido2_flash_store_ops.cred_put(&fs, &c) == 0, "epoch 1 with a record");
		st.epoch = 2;
		CHECK(fido2_flash_store_ops.save_state(&fs, &st) == 0, "epoch 2, no Reset flag");
		memcpy(snap, FL, sizeof FL);
		nops = 0;
		CHECK(fido2_flash_store_mount(&fs, &FLASH) == -2 && fs.err != NULL
			&& strstr(fs.err, "another device epoch") && nops == 0
			&& memcmp(snap, FL, sizeof FL) == 0, "record of another epoch refused");
		/* With the flag the same log mounts without the record. */
		st.flags = FIDO2_STATE_RESET_PENDING;
		fs.err = NULL;
		{
			fido2_flash_store fs2;
			memset(FL, 0xff, sizeof FL);
			fido2_flash_store_mount(&fs2, &FLASH);
			st.epoch = 1; st.flags = 0;
			fido2_flash_store_ops.save_state(&fs2, &st);
			fido2_flash_store_ops.cred_put(&fs2, &c);
			st.epoch = 2; st.flags = FIDO2_STATE_RESET_PENDING;
			fido2_flash_store_ops.save_state(&fs2, &st);
			CHECK(fido2_flash_store_mount(&fs2, &FLASH) == 0
				&& fido2_flash_store_ops.cred_count(&fs2) == 0, "Reset in progress: mounts, record left out");
		}
	}

	/* Full: more accounts than the index holds. */
	{
		fido2_dev_state st;
		fido2_cred c;
		int i, r = 0;
		memset(FL, 0xff, sizeof FL);
		fido2_flash_store_mount(&fs, &FLASH);
		memset(&st, 0, sizeof st);
		st.epoch = 1;
		fido2_flash_store_ops.save_state(&fs, &st);
		for (i = 0; i < FIDO2_FLASH_MAX_CREDS + 1 && r == 0; i++) {
			mk(&c, 0, 5, 1);
			c.user_id[0] = (uint8_t)i;
			r = fido2_flash_store_ops.cred_put(&fs, &c);
		}
		CHECK(r == FIDO2_STORE_FULL && i == FIDO2_FLASH_MAX_CREDS + 1, "store full reported");
	}
	test_v1_record(&fs);
	return T_DONE();
}
