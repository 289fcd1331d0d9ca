/*
 * CTAPHID framing. Packet layouts (CTAP 2.1, 11.2.4):
 *   init:         CID(4) | CMD(1, bit 7 set) | BCNTH | BCNTL | DATA(57)
 *   continuation: CID(4) | SEQ(1, 0..127)    | DATA(59)
 * One transaction at a time: while a message is being received on one
 * channel, init packets of other commands from other channels get
 * ERR_CHANNEL_BUSY; INIT is answered on any channel at any time (it is a
 * single packet and resynchronises its channel).
 */
#include "fido2_ctaphid.h"
#include "fido2_sha256.h"

static uint32_t
get_cid(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16)
		| ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void
put_cid(uint8_t *p, uint32_t cid)
{
	p[0] = (uint8_t)(cid >> 24);
	p[1] = (uint8_t)(cid >> 16);
	p[2] = (uint8_t)(cid >> 8);
	p[3] = (uint8_t)cid;
}

void
fido2_hid_init(fido2_hid *hid, fido2_hid_sender send,
	fido2_hid_handler handle, fido2_hid_winker wink, fido2_hid_rng rng,
	void *user)
{
	hid->send = send;
	hid->handle = handle;
	hid->wink = wink;
	hid->rng = rng;
	hid->user = user;
	hid->nchans = 0;
	hid->chan_old = 0;
	hid->busy = 0;
	hid->processing = 0;
	hid->cancelled = 0;
	hid->cid = 0;
	hid->ver_major = 0;
	hid->ver_minor = 1;
	hid->ver_build = 0;
}

void
fido2_hid_send_msg(fido2_hid *hid, uint32_t cid, uint8_t cmd,
	const uint8_t *data, size_t len)
{
	uint8_t rpt[FIDO2_HID_RPT];
	size_t off, n;
	uint8_t seq = 0;

	if (len > FIDO2_HID_MAX_MSG) {
		len = 0;
		cmd = FIDO2_HID_ERROR;
	}
	fido2_memset(rpt, 0, sizeof rpt);
	put_cid(rpt, cid);
	rpt[4] = cmd;
	rpt[5] = (uint8_t)(len >> 8);
	rpt[6] = (uint8_t)len;
	n = len < FIDO2_HID_INIT_DATA ? len : FIDO2_HID_INIT_DATA;
	fido2_memcpy(rpt + 7, data, n);
	hid->send(hid->user, rpt);
	off = n;
	while (off < len) {
		fido2_memset(rpt, 0, sizeof rpt);
		put_cid(rpt, cid);
		rpt[4] = seq++;
		n = len - off < FIDO2_HID_CONT_DATA ? len - off : FIDO2_HID_CONT_DATA;
		fido2_memcpy(rpt + 5, data + off, n);
		hid->send(hid->user, rpt);
		off += n;
	}
}

static int
send_error(fido2_hid *hid, uint32_t cid, uint8_t code)
{
	fido2_hid_send_msg(hid, cid, FIDO2_HID_ERROR, &code, 1);
	return code;
}

void
fido2_hid_keepalive(fido2_hid *hid, uint8_t status)
{
	if (hid->processing) {
		fido2_hid_send_msg(hid, hid->cid, FIDO2_HID_KEEPALIVE, &status, 1);
	}
}

int
fido2_hid_poll_busy(fido2_hid *hid, const uint8_t rpt[64])
{
	uint32_t cid = get_cid(rpt);
	if (cid == hid->cid && rpt[4] == FIDO2_HID_CANCEL) {
		hid->cancelled = 1;
		return 1;
	}
	if (cid != hid->cid && (rpt[4] & 0x80) != 0) {
		if (rpt[4] == FIDO2_HID_INIT) {
			/* Allocation stays possible while busy. */
			(void)fido2_hid_input(hid, rpt, hid->last_ms);
		} else {
			send_error(hid, cid, FIDO2_HID_ERR_CHANNEL_BUSY);
		}
	}
	return 0;
}

static int
cid_valid(const fido2_hid *hid, uint32_t cid)
{
	unsigned i;
	int found = 0;
	for (i = 0; i < hid->nchans; i++) {
		found |= hid->chans[i] == cid;
	}
	return cid != 0 && cid != FIDO2_HID_BROADCAST && found;
}

/* A new channel ID from the RNG, recorded (replacing the oldest when the
   table is full): 0 and *out, or -1 if the RNG fails. */
static int
alloc_cid(fido2_hid *hid, uint32_t *out)
{
	uint8_t b[4];
	uint32_t c;
	do {
		if (hid->rng == NULL || hid->rng(hid->user, b, 4) != 0) {
			return -1;
		}
		c = get_cid(b);
	} while (c == 0 || c == FIDO2_HID_BROADCAST || cid_valid(hid, c));
	if (hid->nchans < FIDO2_HID_CHANNELS) {
		hid->chans[hid->nchans++] = c;
	} else {
		hid->chans[hid->chan_old] = c;
		hid->chan_old = (hid->chan_old + 1) % FIDO2_HID_CHANNELS;
	}
	*out = c;
	return 0;
}

static void
handle_init(fido2_hid *hid, uint32_t cid, const uint8_t *nonce)
{
	uint8_t r[17];
	uint32_t ncid = cid;

	if (cid == FIDO2_HID_BROADCAST) {
		if (alloc_cid(hid, &ncid) != 0) {
			send_error(hid, cid, FIDO2_HID_ERR_OTHER);
			return;
		}
	} else if (hid->busy && hid->cid == cid) {
		/* INIT on a channel in a transaction aborts it (resync). */
		hid->busy = 0;
	}
	fido2_memcpy(r, nonce, 8);
	put_cid(r + 8, ncid);
	r[12] = 2;                  /* CTAPHID protocol version */
	r[13] = hid->ver_major;
	r[14] = hid->ver_minor;
	r[15] = hid->ver_build;
	r[16] = FIDO2_HID_CAP_WINK | FIDO2_HID_CAP_CBOR;
	fido2_hid_send_msg(hid, cid, FIDO2_HID_INIT, r, sizeof r);
}

/* A message is complete: dispatch it. */
static void
dispatch(fido2_hid *hid)
{
	uint32_t cid = hid->cid;
	uint8_t cmd = hid->cmd;
	size_t n;

	hid->busy = 0;
	switch (cmd) {
	case FIDO2_HID_PING:
		fido2_hid_send_msg(hid, cid, FIDO2_HID_PING, hid->msg, hid->bcnt);
		break;
	case FIDO2_HID_WINK:
		if (hid->bcnt != 0) {
			send_error(hid, cid, FIDO2_HID_ERR_INVALID_LEN);
			break;
		}
		if (hid->wink != NULL) {
			hid->wink(hid->user);
		}
		fido2_hid_send_msg(hid, cid, FIDO2_HID_WINK, NULL, 0);
		break;
	case FIDO2_HID_CBOR:
	case FIDO2_HID_MSG:
		if (hid->bcnt == 0) {
			send_error(hid, cid, FIDO2_HID_ERR_INVALID_LEN);
			break;
		}
		hid->processing = 1;
		hid->cancelled = 0;
		n = hid->handle(hid->user, hid, cmd, hid->msg, hid->bcnt, hid->resp);
		hid->processing = 0;
		fido2_hid_send_msg(hid, cid, cmd, hid->resp, n);
		break;
	default:
		send_error(hid, cid, FIDO2_HID_ERR_INVALID_CMD);
		break;
	}
}

int
fido2_hid_input(fido2_hid *hid, const uint8_t rpt[64], uint32_t now_ms)
{
	uint32_t cid = get_cid(rpt);
	uint8_t b4 = rpt[4];

	if ((b4 & 0x80) != 0) {
		/* Initialization packet. */
		uint16_t bcnt = (uint16_t)(((unsigned)rpt[5] << 8) | rpt[6]);
		if (b4 == FIDO2_HID_INIT) {
			if (bcnt != 8) {
				return send_error(hid, cid, FIDO2_HID_ERR_INVALID_LEN);
			}
			if (cid != FIDO2_HID_BROADCAST && !cid_valid(hid, cid)) {
				return send_error(hid, cid,
					FIDO2_HID_ERR_INVALID_CHANNEL);
			}
			handle_init(hid, cid, rpt + 7);
			return 0;
		}
		if (!cid_valid(hid, cid)) {
			return send_error(hid, cid, FIDO2_HID_ERR_INVALID_CHANNEL);
		}
		if (b4 == FIDO2_HID_CANCEL) {
			/* Nothing runs asynchronously here: a CANCEL outside
			   processing has nothing to stop and gets no answer. */
			if (hid->busy && hid->cid == cid) {
				hid->busy = 0;
			}
			return 0;
		}
		if (hid->busy) {
			if (hid->cid != cid) {
				return send_error(hid, cid,
					FIDO2_HID_ERR_CHANNEL_BUSY);
			}
			/* A new init packet in the middle of our own message. */
			hid->busy = 0;
			return send_error(hid, cid, FIDO2_HID_ERR_INVALID_SEQ);
		}
		if (bcnt > FIDO2_HID_MAX_MSG) {
			return send_error(hid, cid, FIDO2_HID_ERR_INVALID_LEN);
		}
		if (b4 != FIDO2_HID_PING && b4 != FIDO2_HID_MSG
			&& b4 != FIDO2_HID_CBOR && b4 != FIDO2_HID_WINK) {
			return send_error(hid, cid, FIDO2_HID_ERR_INVALID_CMD);
		}
		hid->cid = cid;
		hid->cmd = b4;
		hid->bcnt = bcnt;
		hid->got = bcnt < FIDO2_HID_INIT_DATA ? bcnt : FIDO2_HID_INIT_DATA;
		fido2_memcpy(hid->msg, rpt + 7, hid->got);
		hid->seq = 0;
		hid->last_ms = now_ms;
		hid->busy = 1;
		if (hid->got == hid->bcnt) {
			dispatch(hid);
		}
		return 0;
	}

	/* Continuation packet. */
	if (!hid->busy || cid != hid->cid) {
		/* Spurious continuation: ignored (CTAP 2.1, 11.2.5). */
		return 0;
	}
	if (b4 != hid->seq) {
		hid->busy = 0;
		return send_error(hid, cid, FIDO2_HID_ERR_INVALID_SEQ);
	}
	{
		size_t n = (size_t)(hid->bcnt - hid->got);
		if (n > FIDO2_HID_CONT_DATA) {
			n = FIDO2_HID_CONT_DATA;
		}
		fido2_memcpy(hid->msg + hid->got, rpt + 5, n);
		hid->got = (uint16_t)(hid->got + n);
	}
	hid->seq++;
	hid->last_ms = now_ms;
	if (hid->got == hid->bcnt) {
		dispatch(hid);
	}
	return 0;
}

void
fido2_hid_tick(fido2_hid *hid, uint32_t now_ms)
{
	if (hid->busy && (uint32_t)(now_ms - hid->last_ms) > FIDO2_HID_TIMEOUT_MS) {
		hid->busy = 0;
		send_error(hid, hid->cid, FIDO2_HID_ERR_MSG_TIMEOUT);
	}
}
