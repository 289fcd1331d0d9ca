/*
 * fa_py_batch_front.c -- the service's batch requests from JSON body to
 * broker job and from finished job to JSON answer, in C (for the Python
 * binding, cffi ABI mode).
 *
 * A front holds the keys the service has loaded (key id -> encoded public
 * and private key) and scratch buffers sized for the largest request.
 * fa_py_front_submit reads a batch body with fa_py_scan_batch, looks its
 * key ids up, decodes the base64 fields with fa_py_pack_b64_spans (keys
 * of length 0: the messages and signatures back to back) and submits the
 * items (fa_broker_item, each pointing at its key in the front: the job
 * then holds one copy per run of equal keys); fa_py_job_json writes the
 * answer. Anything the front does not handle (other fields,
 * escapes, an unknown key id, invalid base64, an impossible signature
 * size, a format spelled otherwise than exactly) is left to the caller's
 * detailed path, which names the culprit: nothing is submitted then.
 *
 * A front is used by one thread at a time (the service's event loop);
 * the broker copies the items at submission, so the scratch buffers are
 * free again as soon as fa_py_front_submit returns.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "falcon_accel.h"
#include "falcon_accel_edge.h"
#include "fa_py.h"      /* also the reader and packer of fa_py.c */

/* fa_py_front_submit's answer when the body is left to the caller. */
#define FRONT_DETAILED   1
/* Distinct key ids in one request handled here (more: detailed path). */
#define FRONT_MAX_KEYS   16
#define FRONT_ID_MAX     64

typedef struct {
	char id[FRONT_ID_MAX];
	size_t id_len;          /* 0: free slot */
	uint8_t *pk;
	size_t pk_len;
	uint8_t *sk;            /* NULL if the private key is not known */
	size_t sk_len;
} front_key;

struct fa_py_front {
	front_key *keys;        /* open addressing, cap a power of two */
	size_t keys_cap;
	size_t keys_n;
	size_t max_items;
	size_t *spans;          /* 6 per item (fa_py_scan_batch) */
	uint32_t *key_idx;      /* per item */
	size_t *lens;           /* 3 per item (decoded lengths) */
	fa_broker_item *items;  /* per item */
	uint8_t *out;           /* decoded messages and signatures */
	size_t out_cap;
};

/* FNV-1a over the key id (ids are hex digests: any mix will do). */
static size_t
id_hash(const char *id, size_t len)
{
	uint64_t h = 0xcbf29ce484222325u;
	size_t i;

	for (i = 0; i < len; i ++) {
		h = (h ^ (uint8_t)id[i]) * 0x100000001b3u;
	}
	return (size_t)(h ^ (h >> 32));
}

static front_key *
find_slot(front_key *keys, size_t cap, const char *id, size_t len)
{
	size_t i = id_hash(id, len) & (cap - 1);

	for (;;) {
		front_key *k = &keys[i];

		if (k->id_len == 0 || (k->id_len == len
			&& memcmp(k->id, id, len) == 0))
		{
			return k;
		}
		i = (i + 1) & (cap - 1);
	}
}

static void
wipe_free(uint8_t *p, size_t len)
{
	if (p != NULL) {
		fa_free_secret(p, len);
	}
}

fa_py_front *
fa_py_front_new(size_t max_items)
{
	fa_py_front *f;

	if (max_items == 0 || max_items > ((size_t)1 << 24)) {
		return NULL;
	}
	f = calloc(1, sizeof *f);
	if (f == NULL) {
		return NULL;
	}
	f->max_items = max_items;
	f->keys_cap = 16;
	f->keys = calloc(f->keys_cap, sizeof *f->keys);
	f->spans = malloc(6 * max_items * sizeof *f->spans);
	f->key_idx = malloc(max_items * sizeof *f->key_idx);
	f->lens = malloc(3 * max_items * sizeof *f->lens);
	f->items = malloc(max_items * sizeof *f->items);
	if (f->keys == NULL || f->spans == NULL || f->key_idx == NULL
		|| f->lens == NULL || f->items == NULL)
	{
		free(f->keys);
		free(f->spans);
		free(f->key_idx);
		free(f->lens);
		free(f->items);
		free(f);
		return NULL;
	}
	return f;
}

void
fa_py_front_free(fa_py_front *f)
{
	size_t i;

	if (f == NULL) {
		return;
	}
	for (i = 0; i < f->keys_cap; i ++) {
		free(f->keys[i].pk);
		wipe_free(f->keys[i].sk, f->keys[i].sk_len);
	}
	free(f->keys);
	free(f->spans);
	free(f->key_idx);
	free(f->lens);
	free(f->items);
	free(f->out);
	free(f);
}

static int
grow_keys(fa_py_front *f)
{
	size_t cap = 2 * f->keys_cap, i;
	front_key *nk = calloc(cap, sizeof *nk);

	if (nk == NULL) {
		return -1;
	}
	for (i = 0; i < f->keys_cap; i ++) {
		front_key *k = &f->keys[i];

		if (k->id_len != 0) {
			*find_slot(nk, cap, k->id, k->id_len) = *k;
		}
	}
	free(f->keys);
	f->keys = nk;
	f->keys_cap = cap;
	return 0;
}

static uint8_t *
dup_bytes(const void *p, size_t len)
{
	uint8_t *d = malloc(len != 0 ? len : 1);

	if (d != NULL) {
		memcpy(d, p, len);
	}
	return d;
}

/*
 * Records key id -> (encoded public key, encoded private key or NULL).
 * A known id is replaced. The public key must be an encoded Falcon public
 * key (header 0x00 + logn, exact size). Returns FA_OK, FA_ERR_BADARG or
 * FA_ERR_INTERNAL (out of memory).
 */
int
fa_py_front_put_key(fa_py_front *f, const char *id, size_t id_len,
	const void *pk, size_t pk_len, const void *sk, size_t sk_len)
{
	front_key *k;
	uint8_t *npk, *nsk = NULL;
	int logn;

	if (f == NULL || id == NULL || id_len == 0 || id_len > FRONT_ID_MAX
		|| pk == NULL)
	{
		return FA_ERR_BADARG;
	}
	logn = fa_get_logn(pk, pk_len);
	if (logn < 0 || ((const uint8_t *)pk)[0] != (unsigned)logn
		|| pk_len != FA_PUBKEY_SIZE((unsigned)logn))
	{
		return FA_ERR_BADARG;
	}
	if (2 * (f->keys_n + 1) > f->keys_cap && grow_keys(f) != 0) {
		return FA_ERR_INTERNAL;
	}
	npk = dup_bytes(pk, pk_len);
	if (sk != NULL) {
		nsk = dup_bytes(sk, sk_len);
	}
	if (npk == NULL || (sk != NULL && nsk == NULL)) {
		free(npk);
		wipe_free(nsk, sk_len);
		return FA_ERR_INTERNAL;
	}
	k = find_slot(f->keys, f->keys_cap, id, id_len);
	if (k->id_len == 0) {
		f->keys_n ++;
	}
	free(k->pk);
	wipe_free(k->sk, k->sk_len);
	memcpy(k->id, id, id_len);
	k->id_len = id_len;
	k->pk = npk;
	k->pk_len = pk_len;
	k->sk = nsk;
	k->sk_len = nsk != NULL ? sk_len : 0;
	return FA_OK;
}

/* Number of keys recorded. */
size_t
fa_py_front_key_count(const fa_py_front *f)
{
	return f != NULL ? f->keys_n : 0;
}

static int
span_eq(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* The signature format named exactly by a request ("format" absent:
   -1 given as len), or -1 to leave to the detailed path. */
static int
parse_format(const char *s, size_t len, int op)
{
	if (len == (size_t)-1) {
		return op == FA_OP_VERIFY ? 0 : FA_SIG_COMPRESSED;
	}
	if (span_eq(s, len, "compressed")) {
		return FA_SIG_COMPRESSED;
	}
	if (span_eq(s, len, "padded")) {
		return FA_SIG_PADDED;
	}
	if (span_eq(s, len, "ct")) {
		return FA_SIG_CT;
	}
	if (op == FA_OP_VERIFY && span_eq(s, len, "any")) {
		return 0;
	}
	return -1;
}

/*
 * Reads a batch body (see fa_py_scan_batch; op FA_OP_SIGN or
 * FA_OP_VERIFY) and submits its items as one job with notify = 1,
 * timeout_us (0: none) and tag, on the broker's default backend; *job
 * gets the caller's reference and *sig_format the job's format (sign:
 * FA_SIG_*; verify: 0 = any or FA_SIG_*). Returns FA_OK, 1 when the body
 * is left to the caller's detailed path (nothing submitted), or the
 * broker's error (FA_ERR_BUSY...).
 *
 * Handled here: every key id recorded (with its private key for
 * signing), every field valid padded base64, for verification every
 * signature 42 to FA_SIG_MAXSIZE(logn) bytes for its key's degree, and
 * "format" exactly one of the names (absent: compressed for signing, any
 * for verification).
 */
int
fa_py_front_submit(fa_py_front *f, fa_broker *b, int op, const char *body,
	size_t body_len, int64_t timeout_us, uint64_t tag, fa_job **job,
	int *sig_format)
{
	static const size_t no_key_lens[FRONT_MAX_KEYS];
	static const uint8_t no_key[1];
	size_t key_spans[2 * FRONT_MAX_KEYS], info[4];
	const front_key *ring[FRONT_MAX_KEYS];
	size_t nkeys, n, k, i, pos;
	unsigned per;
	long packed;
	int fmt;
	fa_job_options opt;

	*job = NULL;
	if (op != FA_OP_SIGN && op != FA_OP_VERIFY) {
		return FA_ERR_BADARG;
	}
	per = op == FA_OP_VERIFY ? 2 : 1;
	if (fa_py_scan_batch(body, body_len, per, f->max_items, f->spans,
		f->key_idx, key_spans, FRONT_MAX_KEYS, info) != 0)
	{
		return FRONT_DETAILED;
	}
	n = info[0];
	nkeys = info[1];
	fmt = parse_format(body + info[2], info[3], op);
	if (fmt < 0) {
		return FRONT_DETAILED;
	}
	for (k = 0; k < nkeys; k ++) {
		const front_key *e;
		size_t len = key_spans[2 * k + 1];

		if (len == 0 || len > FRONT_ID_MAX) {
			return FRONT_DETAILED;
		}
		e = find_slot(f->keys, f->keys_cap, body + key_spans[2 * k],
			len);
		if (e->id_len == 0 || (op == FA_OP_SIGN && e->sk == NULL)) {
			return FRONT_DETAILED;
		}
		ring[k] = e;
	}
	/* Decoded fields take at most 3/4 of their text in the body. */
	if (body_len > f->out_cap) {
		uint8_t *no = malloc(body_len);

		if (no == NULL) {
			return FA_ERR_INTERNAL;
		}
		free(f->out);
		f->out = no;
		f->out_cap = body_len;
	}
	/* Keys of length 0: only the decoded fields, back to back. */
	packed = fa_py_pack_b64_spans(no_key, no_key_lens, nkeys, f->key_idx,
		body, f->spans, per, n, f->out, f->out_cap, f->lens);
	if (packed < 0) {
		return FRONT_DETAILED;
	}
	for (i = 0, pos = 0; i < n; i ++) {
		const front_key *e = ring[f->key_idx[i]];
		const size_t *l = f->lens + (1 + per) * i;
		fa_broker_item *it = &f->items[i];

		it->key = op == FA_OP_SIGN ? e->sk : e->pk;
		it->key_len = op == FA_OP_SIGN ? e->sk_len : e->pk_len;
		it->msg = f->out + pos;
		it->msg_len = l[1];
		pos += l[1];
		it->sig = NULL;
		it->sig_len = 0;
		if (op == FA_OP_VERIFY) {
			/* pk[0] is logn (checked by fa_py_front_put_key). */
			if (l[2] < 42 || l[2] > FA_SIG_MAXSIZE(e->pk[0])) {
				return FRONT_DETAILED;
			}
			it->sig = f->out + pos;
			it->sig_len = l[2];
			pos += l[2];
		}
	}
	memset(&opt, 0, sizeof opt);
	opt.op = op;
	opt.sig_format = fmt;
	opt.timeout_us = timeout_us;
	opt.tag = tag;
	opt.notify = 1;
	*sig_format = fmt;
	return fa_broker_submit(b, &opt, f->items, n, job);
}

/* ------------------------------------------------------------------ */
/* Answers. */

static const char b64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Padded base64 of in[0..len) to out (4 * ceil(len / 3) characters). */
static size_t
b64_encode(const uint8_t *in, size_t len, char *out)
{
	size_t i, o = 0;

	for (i = 0; i + 3 <= len; i += 3) {
		uint32_t w = ((uint32_t)in[i] << 16) | ((uint32_t)in[i + 1] << 8)
			| in[i + 2];

		out[o ++] = b64_alphabet[w >> 18];
		out[o ++] = b64_alphabet[(w >> 12) & 63];
		out[o ++] = b64_alphabet[(w >> 6) & 63];
		out[o ++] = b64_alphabet[w & 63];
	}
	if (i < len) {
		uint32_t w = (uint32_t)in[i] << 16;

		if (i + 1 < len) {
			w |= (uint32_t)in[i + 1] << 8;
		}
		out[o ++] = b64_alphabet[w >> 18];
		out[o ++] = b64_alphabet[(w >> 12) & 63];
		out[o ++] = i + 1 < len ? b64_alphabet[(w >> 6) & 63] : '=';
		out[o ++] = '=';
	}
	return o;
}

static size_t
put(char *out, size_t o, const char *s)
{
	size_t len = strlen(s);

	memcpy(out + o, s, len);
	return o + len;
}

static size_t
put_uint(char *out, size_t o, size_t v)
{
	char tmp[24];
	size_t k = 0;

	do {
		tmp[k ++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (k > 0) {
		out[o ++] = tmp[-- k];
	}
	return o;
}

/* Room fa_py_job_json needs for a done job's answer. */
size_t
fa_py_job_json_size(const fa_job *job)
{
	size_t n = fa_job_count(job), i, len = 64;

	if (fa_job_op(job) == FA_OP_VERIFY) {
		return len + 6 * n;
	}
	for (i = 0; i < n; i ++) {
		const uint8_t *sig;
		size_t sl = 0;

		if (fa_job_signature(job, i, &sig, &sl) != FA_OK) {
			sl = 0;
		}
		len += 4 * ((sl + 2) / 3) + 3;
	}
	return len;
}

/*
 * The service's answer to a done batch job, as compact JSON: verify
 * {"results":[true,false,...],"valid":N} (true: the item's status is 0);
 * sign {"format":"compressed|padded|ct","signatures":["<base64>",...]}
 * (sig_format as fa_py_front_submit gave it). Returns the length, or -1
 * if the job is not done, has a job-level error (cancelled, deadline),
 * a sign item failed, or cap is too small: the caller then reports the
 * job's errors itself.
 */
long
fa_py_job_json(const fa_job *job, int sig_format, char *out, size_t cap)
{
	size_t n = fa_job_count(job), i, o = 0, valid = 0;
	int op = fa_job_op(job);

	if (fa_job_status(job) != FA_OK || cap < fa_py_job_json_size(job)) {
		return -1;
	}
	if (op == FA_OP_VERIFY) {
		o = put(out, o, "{\"results\":[");
		for (i = 0; i < n; i ++) {
			int ok = fa_job_item_status(job, i) == FA_OK;

			valid += (size_t)ok;
			o = put(out, o, ok ? "true," : "false,");
		}
		o = put(out, o - 1, "],\"valid\":");
		o = put_uint(out, o, valid);
		out[o ++] = '}';
		return (long)o;
	}
	switch (sig_format) {
	case FA_SIG_COMPRESSED:
		o = put(out, o, "{\"format\":\"compressed\",\"signatures\":[");
		break;
	case FA_SIG_PADDED:
		o = put(out, o, "{\"format\":\"padded\",\"signatures\":[");
		break;
	case FA_SIG_CT:
		o = put(out, o, "{\"format\":\"ct\",\"signatures\":[");
		break;
	default:
		return -1;
	}
	for (i = 0; i < n; i ++) {
		const uint8_t *sig;
		size_t sl;

		if (fa_job_signature(job, i, &sig, &sl) != FA_OK) {
			return -1;
		}
		out[o ++] = '"';
		o += b64_encode(sig, sl, out + o);
		out[o ++] = '"';
		out[o ++] = ',';
	}
	o = put(out, o - 1, "]}");
	return (long)o;
}
