/*
 * fa_py_batch_front.c -- the service's batch requests in C (for the
 * Python binding, cffi ABI mode): the one parser of a batch request body
 * (fa_py_front_parse), from the parsed body to a broker job
 * (fa_py_front_submit) or to packed items (fa_py_front_pack), and from
 * the done job to the JSON answer (fa_py_job_json).
 *
 * A front holds scratch buffers sized for the largest request and a key
 * registry (fa_py_keys.c: its own, or the service's). fa_py_front_parse
 * reads a body with fa_py_scan_batch and decodes its base64 fields with
 * fa_py_b64_decode_fields; fa_py_front_submit then looks the key ids up
 * in the registry (under its lock) and submits the items (fa_broker_item,
 * each pointing at its key in the registry: the job then holds one copy
 * per run of equal keys). A body the parser or the lookup does not take
 * is left to the caller's strict Python fallback with the reason
 * (FA_PY_FALLBACK_*: other fields, escapes, more key ids than
 * FA_PY_BATCH_MAX_KEYS, an unknown or FN-DSA key id, invalid base64, an
 * impossible signature size, a format spelled otherwise than exactly);
 * nothing is submitted then, and the fallback names the culprit.
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
#include "fa_py.h"
#include "fa_py_internal.h"

struct fa_py_front {
	fa_py_keys *keys;       /* the registry */
	int own_keys;           /* 1: created (and freed) with the front */
	size_t max_items;
	size_t *spans;          /* 6 per item (fa_py_scan_batch) */
	uint32_t *key_idx;      /* per item */
	size_t key_spans[2 * FA_PY_BATCH_MAX_KEYS];
	size_t *lens;           /* 2 per item (decoded lengths) */
	fa_broker_item *items;  /* per item */
	uint8_t *out;           /* decoded messages and signatures */
	size_t out_cap;
	/* The last parsed body. */
	int op;
	size_t n, nkeys;
};

fa_py_front *
fa_py_front_new_keys(size_t max_items, fa_py_keys *keys)
{
	fa_py_front *f;

	if (max_items == 0 || max_items > ((size_t)1 << 24) || keys == NULL) {
		return NULL;
	}
	f = calloc(1, sizeof *f);
	if (f == NULL) {
		return NULL;
	}
	f->keys = keys;
	f->max_items = max_items;
	f->spans = malloc(6 * max_items * sizeof *f->spans);
	f->key_idx = malloc(max_items * sizeof *f->key_idx);
	f->lens = malloc(2 * max_items * sizeof *f->lens);
	f->items = malloc(max_items * sizeof *f->items);
	if (f->spans == NULL || f->key_idx == NULL || f->lens == NULL
		|| f->items == NULL)
	{
		fa_py_front_free(f);
		return NULL;
	}
	return f;
}

fa_py_front *
fa_py_front_new(size_t max_items)
{
	fa_py_keys *keys = fa_py_keys_new();
	fa_py_front *f = fa_py_front_new_keys(max_items, keys);

	if (f == NULL) {
		fa_py_keys_free(keys);
		return NULL;
	}
	f->own_keys = 1;
	return f;
}

void
fa_py_front_free(fa_py_front *f)
{
	if (f == NULL) {
		return;
	}
	if (f->own_keys) {
		fa_py_keys_free(f->keys);
	}
	free(f->spans);
	free(f->key_idx);
	free(f->lens);
	free(f->items);
	if (f->out != NULL) {
		/* Decoded messages: wiped like the keys. */
		fa_free_secret(f->out, f->out_cap);
	}
	free(f);
}

int
fa_py_front_put_key(fa_py_front *f, const char *id, size_t id_len,
	const void *pk, size_t pk_len, const void *sk, size_t sk_len)
{
	if (f == NULL) {
		return FA_ERR_BADARG;
	}
	return fa_py_keys_put(f->keys, id, id_len, FA_PY_SCHEME_FALCON, pk,
		pk_len, sk, sk_len);
}

size_t
fa_py_front_key_count(const fa_py_front *f)
{
	return f != NULL ? fa_py_keys_count(f->keys, FA_PY_SCHEME_FALCON) : 0;
}

static int
span_eq(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* The signature format named exactly by a request ("format" absent:
   -1 given as len), or -1 if it is not a format name. */
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

int
fa_py_front_parse(fa_py_front *f, int op, const char *body,
	size_t body_len, size_t *info)
{
	unsigned per;
	long r;
	int fmt;

	f->n = f->nkeys = 0;
	if (op != FA_OP_SIGN && op != FA_OP_VERIFY) {
		return FA_ERR_BADARG;
	}
	per = op == FA_OP_VERIFY ? 2 : 1;
	r = fa_py_scan_batch(body, body_len, per, f->max_items, f->spans,
		f->key_idx, f->key_spans, FA_PY_BATCH_MAX_KEYS, info);
	if (r != 0) {
		return (int)r;
	}
	/* Decoded fields take at most 3/4 of their text in the body. */
	if (body_len > f->out_cap) {
		uint8_t *no = malloc(body_len);

		if (no == NULL) {
			return FA_ERR_INTERNAL;
		}
		if (f->out != NULL) {
			fa_free_secret(f->out, f->out_cap);
		}
		f->out = no;
		f->out_cap = body_len;
	}
	r = fa_py_b64_decode_fields(body, f->spans, per, info[0], f->out,
		f->out_cap, f->lens);
	if (r < 0) {
		return FA_PY_FALLBACK_BASE64;
	}
	fmt = parse_format(body + info[2], info[3], op);
	info[4] = fmt < 0 ? (size_t)-1 : (size_t)fmt;
	f->op = op;
	f->n = info[0];
	f->nkeys = info[1];
	return FA_OK;
}

size_t
fa_py_front_key_id(const fa_py_front *f, size_t k, size_t *len)
{
	if (k >= f->nkeys) {
		*len = 0;
		return 0;
	}
	*len = f->key_spans[2 * k + 1];
	return f->key_spans[2 * k];
}

long
fa_py_front_pack(const fa_py_front *f, const uint8_t *keys,
	const size_t *key_lens, size_t nkeys, uint8_t *out, size_t out_cap,
	size_t *lens_out)
{
	size_t key_off[FA_PY_BATCH_MAX_KEYS];
	size_t i, k, pos = 0, src = 0, per = f->op == FA_OP_VERIFY ? 2 : 1;

	if (nkeys != f->nkeys || f->n == 0) {
		return -1;
	}
	for (k = 0, i = 0; k < nkeys; k ++) {
		key_off[k] = i;
		i += key_lens[k];
	}
	for (i = 0; i < f->n; i ++) {
		size_t kx = f->key_idx[i], len = key_lens[kx];
		size_t *lens = lens_out + (1 + per) * i;

		for (k = 0; k < per; k ++) {
			len += f->lens[per * i + k];
		}
		if (len > out_cap - pos) {
			return -1;
		}
		memcpy(out + pos, keys + key_off[kx], key_lens[kx]);
		pos += key_lens[kx];
		lens[0] = key_lens[kx];
		for (k = 0; k < per; k ++) {
			size_t fl = f->lens[per * i + k];

			memcpy(out + pos, f->out + src, fl);
			pos += fl;
			src += fl;
			lens[1 + k] = fl;
		}
	}
	return (long)pos;
}

/*
 * Handled here: every key id recorded as a falcon key (with its private
 * key for signing), every field valid padded base64, for verification
 * every signature 42 to FA_SIG_MAXSIZE(logn) bytes for its key's degree,
 * and "format" exactly one of the names (absent: compressed for signing,
 * any for verification).
 */
int
fa_py_front_submit(fa_py_front *f, fa_broker *b, int op, const char *body,
	size_t body_len, int64_t timeout_us, uint64_t tag, fa_job **job,
	int *sig_format)
{
	const fa_py_key *ring[FA_PY_BATCH_MAX_KEYS];
	size_t info[5], k, i, pos, per;
	fa_job_options opt;
	int r;

	*job = NULL;
	r = fa_py_front_parse(f, op, body, body_len, info);
	if (r != FA_OK) {
		return r;
	}
	if (info[4] == (size_t)-1) {
		return FA_PY_FALLBACK_FORMAT;
	}
	per = op == FA_OP_VERIFY ? 2 : 1;
	/* The registry's entries stay put until the broker has copied the
	   items. */
	fa_py_keys_lock(f->keys);
	for (k = 0; k < f->nkeys; k ++) {
		const fa_py_key *e = fa_py_keys_find(f->keys,
			body + f->key_spans[2 * k], f->key_spans[2 * k + 1]);

		if (e == NULL || e->scheme != FA_PY_SCHEME_FALCON
			|| (op == FA_OP_SIGN && e->sk == NULL))
		{
			fa_py_keys_unlock(f->keys);
			return FA_PY_FALLBACK_KEY;
		}
		ring[k] = e;
	}
	for (i = 0, pos = 0; i < f->n; i ++) {
		const fa_py_key *e = ring[f->key_idx[i]];
		const size_t *l = f->lens + per * i;
		fa_broker_item *it = &f->items[i];

		it->key = op == FA_OP_SIGN ? e->sk : e->pk;
		it->key_len = op == FA_OP_SIGN ? e->sk_len : e->pk_len;
		it->msg = f->out + pos;
		it->msg_len = l[0];
		pos += l[0];
		it->sig = NULL;
		it->sig_len = 0;
		if (op == FA_OP_VERIFY) {
			if (l[1] < 42 || l[1] > FA_SIG_MAXSIZE(e->logn)) {
				fa_py_keys_unlock(f->keys);
				return FA_PY_FALLBACK_SIZE;
			}
			it->sig = f->out + pos;
			it->sig_len = l[1];
			pos += l[1];
		}
	}
	memset(&opt, 0, sizeof opt);
	opt.op = op;
	opt.sig_format = (int)info[4];
	opt.timeout_us = timeout_us;
	opt.tag = tag;
	opt.notify = 1;
	*sig_format = (int)info[4];
	r = fa_broker_submit(b, &opt, f->items, f->n, job);
	fa_py_keys_unlock(f->keys);
	return r;
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
