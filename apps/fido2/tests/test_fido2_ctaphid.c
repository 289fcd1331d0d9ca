/*
 * CTAPHID framing: INIT (channel allocation, nonce echo, resync), PING
 * echo across many packets, the largest message (7609 bytes), sequence
 * errors, busy channels, timeouts, invalid channels and lengths, WINK,
 * CANCEL, KEEPALIVE while processing, and MSG/CBOR dispatch; channel IDs
 * from the RNG (not 1, 2, 3...), redrawn when 0, broadcast or in use, the
 * oldest forgotten past FIDO2_HID_CHANNELS, ERR_OTHER when the RNG fails.
 */
#include "fido2_test_util.h"
#include "fido2_ctaphid.h"

#define MAXOUT 256
static uint8_t outq[MAXOUT][64];
static int nout;
static int winks;
static fido2_hid H;
static uint8_t last_req[FIDO2_HID_MAX_MSG];
static size_t last_req_len;
static int keepalive_in_handler;

static void sendr(void *u, const uint8_t r[64])
{
	(void)u;
	if (nout < MAXOUT) memcpy(outq[nout++], r, 64);
}
static void wink(void *u) { (void)u; winks++; }

/* The channel RNG: scripted words first, then an xorshift stream. */
static uint32_t rng_script[8];
static int rng_nscript, rng_fail;
static uint32_t rng_state = 0x9e3779b9u;
static int cid_rng(void *u, void *buf, size_t len)
{
	uint8_t *b = buf;
	uint32_t v;
	(void)u;
	if (rng_fail || len != 4) return -1;
	if (rng_nscript > 0) {
		v = rng_script[0];
		memmove(rng_script, rng_script + 1, sizeof rng_script - sizeof rng_script[0]);
		rng_nscript--;
	} else {
		rng_state ^= rng_state << 13; rng_state ^= rng_state >> 17; rng_state ^= rng_state << 5;
		v = rng_state;
	}
	b[0] = (uint8_t)(v >> 24); b[1] = (uint8_t)(v >> 16); b[2] = (uint8_t)(v >> 8); b[3] = (uint8_t)v;
	return 0;
}
static size_t handler(void *u, fido2_hid *hid, uint8_t cmd, const uint8_t *req,
	size_t len, uint8_t *resp)
{
	(void)u;
	memcpy(last_req, req, len);
	last_req_len = len;
	if (keepalive_in_handler) {
		fido2_hid_keepalive(hid, FIDO2_HID_KA_UPNEEDED);
	}
	resp[0] = cmd;
	resp[1] = (uint8_t)len;
	return 2;
}

static uint32_t cidof(const uint8_t *r)
{
	return ((uint32_t)r[0] << 24) | ((uint32_t)r[1] << 16) | ((uint32_t)r[2] << 8) | r[3];
}

static void pkt_init(uint8_t *r, uint32_t cid, uint8_t cmd, uint16_t bcnt,
	const uint8_t *data, size_t n)
{
	memset(r, 0, 64);
	r[0] = (uint8_t)(cid >> 24); r[1] = (uint8_t)(cid >> 16);
	r[2] = (uint8_t)(cid >> 8); r[3] = (uint8_t)cid;
	r[4] = cmd; r[5] = (uint8_t)(bcnt >> 8); r[6] = (uint8_t)bcnt;
	if (n) memcpy(r + 7, data, n);
}
static void pkt_cont(uint8_t *r, uint32_t cid, uint8_t seq, const uint8_t *data, size_t n)
{
	memset(r, 0, 64);
	r[0] = (uint8_t)(cid >> 24); r[1] = (uint8_t)(cid >> 16);
	r[2] = (uint8_t)(cid >> 8); r[3] = (uint8_t)cid;
	r[4] = seq;
	if (n) memcpy(r + 7 - 2, data, n);
}

/* Sends a whole message as packets. */
static void send_msg(uint32_t cid, uint8_t cmd, const uint8_t *d, size_t n, uint32_t t)
{
	uint8_t r[64];
	size_t off = n < 57 ? n : 57;
	uint8_t seq = 0;
	pkt_init(r, cid, cmd, (uint16_t)n, d, off);
	fido2_hid_input(&H, r, t);
	while (off < n) {
		size_t k = n - off < 59 ? n - off : 59;
		pkt_cont(r, cid, seq++, d + off, k);
		fido2_hid_input(&H, r, t);
		off += k;
	}
}

/* Reassembles the response from outq; returns its length or -1. */
static int collect(uint32_t cid, uint8_t *cmd, uint8_t *out)
{
	int i, seq = 0;
	size_t len, got;
	if (nout < 1 || cidof(outq[0]) != cid || !(outq[0][4] & 0x80)) return -1;
	*cmd = outq[0][4];
	len = ((size_t)outq[0][5] << 8) | outq[0][6];
	got = len < 57 ? len : 57;
	memcpy(out, outq[0] + 7, got);
	for (i = 1; i < nout && got < len; i++) {
		size_t k = len - got < 59 ? len - got : 59;
		if (cidof(outq[i]) != cid || outq[i][4] != seq++) return -1;
		memcpy(out + got, outq[i] + 5, k);
		got += k;
	}
	return got == len && i == nout ? (int)len : -1;
}

static uint32_t do_init(void)
{
	uint8_t r[64], nonce[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, cmd, out[64];
	nout = 0;
	pkt_init(r, FIDO2_HID_BROADCAST, FIDO2_HID_INIT, 8, nonce, 8);
	fido2_hid_input(&H, r, 0);
	if (collect(FIDO2_HID_BROADCAST, &cmd, out) != 17 || cmd != FIDO2_HID_INIT
		|| memcmp(out, nonce, 8) != 0) {
		return 0;
	}
	return cidof(out + 8);
}

static int is_error(uint32_t cid, uint8_t code)
{
	return nout == 1 && cidof(outq[0]) == cid && outq[0][4] == FIDO2_HID_ERROR
		&& outq[0][6] == 1 && outq[0][7] == code;
}

int main(void)
{
	static uint8_t big[FIDO2_HID_MAX_MSG + 1], out[FIDO2_HID_MAX_MSG];
	uint8_t r[64], cmd;
	uint32_t c1, c2;
	size_t i;
	int n;

	fido2_hid_init(&H, sendr, handler, wink, cid_rng, NULL);
	/* Channel IDs are the RNG's words; 0, broadcast and a channel in use
	   are drawn again. */
	rng_script[0] = 0x5a17c3e1u;
	rng_script[1] = 0; rng_script[2] = FIDO2_HID_BROADCAST; rng_script[3] = 0x5a17c3e1u;
	rng_script[4] = 0x0badf00du;
	rng_nscript = 5;
	c1 = do_init();
	c2 = do_init();
	CHECK(c1 == 0x5a17c3e1u && c2 == 0x0badf00du, "channels from the RNG %x %x", c1, c2);
	CHECK(rng_nscript == 0, "0, broadcast and the used channel were redrawn");
	/* A failing RNG: INIT answers ERR_OTHER, allocates nothing. */
	rng_fail = 1;
	nout = 0;
	pkt_init(r, FIDO2_HID_BROADCAST, FIDO2_HID_INIT, 8, (const uint8_t *)"noncenon", 8);
	fido2_hid_input(&H, r, 0);
	CHECK(is_error(FIDO2_HID_BROADCAST, FIDO2_HID_ERR_OTHER) && H.nchans == 2,
		"INIT with a failing RNG");
	rng_fail = 0;
	{
		uint8_t rr[64];
		nout = 0;
		pkt_init(rr, FIDO2_HID_BROADCAST, FIDO2_HID_INIT, 8, (const uint8_t *)"abcdefgh", 8);
		fido2_hid_input(&H, rr, 0);
		CHECK(nout == 1 && outq[0][7 + 12] == 2 && (outq[0][7 + 16] & FIDO2_HID_CAP_CBOR),
			"INIT protocol version and CBOR capability");
	}

	/* PING of every interesting size, up to the maximum. */
	for (i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 13 + 5);
	{
		static const size_t sizes[] = { 0, 1, 56, 57, 58, 116, 117, 1000, 7608, 7609 };
		for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
			nout = 0;
			send_msg(c1, FIDO2_HID_PING, big, sizes[i], 0);
			n = collect(c1, &cmd, out);
			CHECK(n == (int)sizes[i] && cmd == FIDO2_HID_PING
				&& memcmp(out, big, sizes[i]) == 0, "PING %zu", sizes[i]);
		}
	}
	/* Over the maximum. */
	nout = 0;
	pkt_init(r, c1, FIDO2_HID_PING, 7610, big, 57);
	fido2_hid_input(&H, r, 0);
	CHECK(is_error(c1, FIDO2_HID_ERR_INVALID_LEN), "7610 bytes rejected");

	/* CBOR and MSG reach the handler intact. */
	nout = 0;
	send_msg(c2, FIDO2_HID_CBOR, big, 300, 0);
	n = collect(c2, &cmd, out);
	CHECK(n == 2 && cmd == FIDO2_HID_CBOR && out[1] == (uint8_t)300
		&& last_req_len == 300 && memcmp(last_req, big, 300) == 0, "CBOR dispatch");
	nout = 0;
	send_msg(c2, FIDO2_HID_MSG, big, 10, 0);
	CHECK(collect(c2, &cmd, out) == 2 && cmd == FIDO2_HID_MSG, "MSG dispatch");
	nout = 0;
	send_msg(c2, FIDO2_HID_CBOR, big, 0, 0);
	CHECK(is_error(c2, FIDO2_HID_ERR_INVALID_LEN), "empty CBOR");

	/* KEEPALIVE sent from within the handler precedes the response. */
	keepalive_in_handler = 1;
	nout = 0;
	send_msg(c1, FIDO2_HID_CBOR, big, 5, 0);
	CHECK(nout == 2 && outq[0][4] == FIDO2_HID_KEEPALIVE && outq[0][7] == FIDO2_HID_KA_UPNEEDED
		&& outq[1][4] == FIDO2_HID_CBOR, "KEEPALIVE then response");
	keepalive_in_handler = 0;

	/* Sequence error. */
	nout = 0;
	pkt_init(r, c1, FIDO2_HID_PING, 200, big, 57);
	fido2_hid_input(&H, r, 0);
	pkt_cont(r, c1, 1, big, 59);
	fido2_hid_input(&H, r, 0);
	CHECK(is_error(c1, FIDO2_HID_ERR_INVALID_SEQ), "wrong sequence number");
	/* The channel works again afterwards. */
	nout = 0;
	send_msg(c1, FIDO2_HID_PING, big, 100, 0);
	CHECK(collect(c1, &cmd, out) == 100, "channel usable after error");

	/* Busy: c1 mid-message, c2 tries; then c1 completes. */
	nout = 0;
	pkt_init(r, c1, FIDO2_HID_PING, 100, big, 57);
	fido2_hid_input(&H, r, 10);
	send_msg(c2, FIDO2_HID_PING, big, 3, 10);
	CHECK(is_error(c2, FIDO2_HID_ERR_CHANNEL_BUSY), "busy answered to the other channel");
	nout = 0;
	pkt_cont(r, c1, 0, big + 57, 43);
	fido2_hid_input(&H, r, 20);
	CHECK(collect(c1, &cmd, out) == 100 && memcmp(out, big, 100) == 0, "c1 completes after busy");

	/* INIT is answered while another channel is mid-message. */
	nout = 0;
	pkt_init(r, c1, FIDO2_HID_PING, 100, big, 57);
	fido2_hid_input(&H, r, 30);
	CHECK(do_init() != 0, "allocation during a transaction");
	nout = 0;
	pkt_cont(r, c1, 0, big + 57, 43);
	fido2_hid_input(&H, r, 40);
	CHECK(collect(c1, &cmd, out) == 100, "transaction survives another channel's INIT");

	/* Timeout: a partial message is dropped with ERR_MSG_TIMEOUT. */
	nout = 0;
	pkt_init(r, c2, FIDO2_HID_PING, 100, big, 57);
	fido2_hid_input(&H, r, 1000);
	fido2_hid_tick(&H, 1000 + FIDO2_HID_TIMEOUT_MS);
	CHECK(nout == 0, "no timeout before the limit");
	fido2_hid_tick(&H, 1000 + FIDO2_HID_TIMEOUT_MS + 1);
	CHECK(is_error(c2, FIDO2_HID_ERR_MSG_TIMEOUT), "timeout");
	nout = 0;
	pkt_cont(r, c2, 0, big, 43);
	fido2_hid_input(&H, r, 2000);
	CHECK(nout == 0, "late continuation ignored");
	/* Timestamps that wrap around 2^32 still time out correctly. */
	nout = 0;
	pkt_init(r, c2, FIDO2_HID_PING, 100, big, 57);
	fido2_hid_input(&H, r, 0xffffff00u);
	fido2_hid_tick(&H, 0x10);
	CHECK(nout == 0, "no timeout across the wrap");
	fido2_hid_tick(&H, 0xffffff00u + FIDO2_HID_TIMEOUT_MS + 1);
	CHECK(is_error(c2, FIDO2_HID_ERR_MSG_TIMEOUT), "timeout across the wrap");

	/* INIT on a channel mid-message resynchronises it. */
	nout = 0;
	pkt_init(r, c1, FIDO2_HID_PING, 100, big, 57);
	fido2_hid_input(&H, r, 0);
	pkt_init(r, c1, FIDO2_HID_INIT, 8, (const uint8_t *)"12345678", 8);
	fido2_hid_input(&H, r, 0);
	CHECK(nout == 1 && outq[0][4] == FIDO2_HID_INIT && cidof(outq[0] + 15) == c1, "resync INIT");
	nout = 0;
	send_msg(c2, FIDO2_HID_PING, big, 3, 0);
	CHECK(collect(c2, &cmd, out) == 3, "no longer busy after resync");

	/* Invalid channels, commands, lengths. */
	nout = 0;
	send_msg(0, FIDO2_HID_PING, big, 3, 0);
	CHECK(is_error(0, FIDO2_HID_ERR_INVALID_CHANNEL), "channel 0");
	nout = 0;
	send_msg(0x7777777, FIDO2_HID_PING, big, 3, 0);
	CHECK(is_error(0x7777777, FIDO2_HID_ERR_INVALID_CHANNEL), "unallocated channel");
	nout = 0;
	send_msg(FIDO2_HID_BROADCAST, FIDO2_HID_PING, big, 3, 0);
	CHECK(is_error(FIDO2_HID_BROADCAST, FIDO2_HID_ERR_INVALID_CHANNEL), "PING on broadcast");
	nout = 0;
	send_msg(c1, 0xa5, big, 3, 0);
	CHECK(is_error(c1, FIDO2_HID_ERR_INVALID_CMD), "unknown command");
	nout = 0;
	send_msg(c1, FIDO2_HID_LOCK, big, 1, 0);
	CHECK(is_error(c1, FIDO2_HID_ERR_INVALID_CMD), "LOCK not supported");
	nout = 0;
	pkt_init(r, FIDO2_HID_BROADCAST, FIDO2_HID_INIT, 7, big, 7);
	fido2_hid_input(&H, r, 0);
	CHECK(is_error(FIDO2_HID_BROADCAST, FIDO2_HID_ERR_INVALID_LEN), "INIT of 7 bytes");
	nout = 0;
	pkt_cont(r, c1, 0, big, 59);
	fido2_hid_input(&H, r, 0);
	CHECK(nout == 0, "spurious continuation ignored");

	/* WINK and CANCEL. */
	nout = 0;
	send_msg(c1, FIDO2_HID_WINK, big, 0, 0);
	CHECK(winks == 1 && collect(c1, &cmd, out) == 0 && cmd == FIDO2_HID_WINK, "WINK");
	nout = 0;
	send_msg(c1, FIDO2_HID_WINK, big, 2, 0);
	CHECK(is_error(c1, FIDO2_HID_ERR_INVALID_LEN) && winks == 1, "WINK with data");
	nout = 0;
	pkt_init(r, c1, FIDO2_HID_PING, 100, big, 57);
	fido2_hid_input(&H, r, 0);
	send_msg(c1, FIDO2_HID_CANCEL, big, 0, 0);
	CHECK(nout == 0, "CANCEL gets no answer");
	send_msg(c2, FIDO2_HID_PING, big, 3, 0);
	CHECK(collect(c2, &cmd, out) == 3, "CANCEL ended the transaction");
	/* fido2_hid_poll_busy while processing. */
	H.processing = 1; H.cid = c1; nout = 0;
	pkt_init(r, c2, FIDO2_HID_CBOR, 1, big, 1);
	CHECK(fido2_hid_poll_busy(&H, r) == 0 && is_error(c2, FIDO2_HID_ERR_CHANNEL_BUSY),
		"busy while processing");
	nout = 0;
	pkt_init(r, c1, FIDO2_HID_CANCEL, 0, big, 0);
	CHECK(fido2_hid_poll_busy(&H, r) == 1 && H.cancelled, "CANCEL while processing");
	H.processing = 0;

	/* The table keeps the last FIDO2_HID_CHANNELS channels: once it is
	   full, the next INIT forgets c1 (the oldest), not c2. */
	{
		uint32_t last = 0;
		while (H.nchans < FIDO2_HID_CHANNELS) {
			do_init();
		}
		last = do_init();
		nout = 0;
		send_msg(c1, FIDO2_HID_PING, big, 3, 0);
		CHECK(is_error(c1, FIDO2_HID_ERR_INVALID_CHANNEL), "oldest channel forgotten");
		nout = 0;
		send_msg(c2, FIDO2_HID_PING, big, 3, 0);
		CHECK(collect(c2, &cmd, out) == 3, "second oldest still valid");
		nout = 0;
		send_msg(last, FIDO2_HID_PING, big, 3, 0);
		CHECK(last != 0 && collect(last, &cmd, out) == 3, "newest valid");
	}
	return T_DONE();
}
