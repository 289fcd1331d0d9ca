/*
 * CTAPHID framing (CTAP 2.1, section 11.2): 64-byte reports, channels,
 * message reassembly up to 7609 bytes, and the commands PING, MSG, INIT,
 * WINK, CBOR, CANCEL, KEEPALIVE and ERROR.
 *
 * The layer is transport-agnostic and freestanding: the platform feeds it
 * one report at a time with the current time in milliseconds
 * (fido2_hid_input), calls fido2_hid_tick now and then for transaction
 * timeouts, and receives reports through the `send` callback. A complete
 * CBOR or MSG request is handed to the `handle` callback, which fills the
 * response buffer; while it runs, fido2_hid_keepalive sends KEEPALIVE and
 * fido2_hid_poll_busy answers other channels with ERR_CHANNEL_BUSY and
 * tells the caller when the host cancelled.
 */
#ifndef FIDO2_CTAPHID_H
#define FIDO2_CTAPHID_H

#include <stddef.h>
#include <stdint.h>

#define FIDO2_HID_RPT        64u
#define FIDO2_HID_INIT_DATA  57u   /* payload bytes in an init packet */
#define FIDO2_HID_CONT_DATA  59u   /* payload bytes in a continuation packet */
/* 57 + 128 * 59: the largest message 128 continuation packets carry. */
#define FIDO2_HID_MAX_MSG    7609u
#define FIDO2_HID_BROADCAST  0xffffffffu
#define FIDO2_HID_TIMEOUT_MS 500u   /* between packets of one message */

/* Commands (with the init-packet bit 0x80). */
#define FIDO2_HID_PING      0x81
#define FIDO2_HID_MSG       0x83
#define FIDO2_HID_LOCK      0x84
#define FIDO2_HID_INIT      0x86
#define FIDO2_HID_WINK      0x88
#define FIDO2_HID_CBOR      0x90
#define FIDO2_HID_CANCEL    0x91
#define FIDO2_HID_KEEPALIVE 0xbb
#define FIDO2_HID_ERROR     0xbf

/* ERROR payloads. */
#define FIDO2_HID_ERR_INVALID_CMD     0x01
#define FIDO2_HID_ERR_INVALID_PAR     0x02
#define FIDO2_HID_ERR_INVALID_LEN     0x03
#define FIDO2_HID_ERR_INVALID_SEQ     0x04
#define FIDO2_HID_ERR_MSG_TIMEOUT     0x05
#define FIDO2_HID_ERR_CHANNEL_BUSY    0x06
#define FIDO2_HID_ERR_LOCK_REQUIRED   0x0a
#define FIDO2_HID_ERR_INVALID_CHANNEL 0x0b
#define FIDO2_HID_ERR_OTHER           0x7f

/* KEEPALIVE status bytes. */
#define FIDO2_HID_KA_PROCESSING 1
#define FIDO2_HID_KA_UPNEEDED   2

/* Capability flags in the INIT response. */
#define FIDO2_HID_CAP_WINK 0x01
#define FIDO2_HID_CAP_CBOR 0x04
#define FIDO2_HID_CAP_NMSG 0x08

typedef struct fido2_hid fido2_hid;

/* Handles one complete request (cmd = FIDO2_HID_CBOR or FIDO2_HID_MSG).
   Writes the response into resp (capacity FIDO2_HID_MAX_MSG) and returns
   its length. */
typedef size_t (*fido2_hid_handler)(void *user, fido2_hid *hid, uint8_t cmd,
	const uint8_t *req, size_t req_len, uint8_t *resp);
typedef void (*fido2_hid_sender)(void *user, const uint8_t rpt[64]);
typedef void (*fido2_hid_winker)(void *user);
/* Fills buf with len random bytes; 0 on success (the platform's RNG). */
typedef int (*fido2_hid_rng)(void *user, void *buf, size_t len);

/* Channels allocated and still valid: the most recent ones; the oldest is
   forgotten when a new one is needed (its client gets
   ERR_INVALID_CHANNEL and runs INIT again). */
#define FIDO2_HID_CHANNELS 32u

struct fido2_hid {
	fido2_hid_sender send;
	fido2_hid_handler handle;
	fido2_hid_winker wink;   /* may be NULL */
	fido2_hid_rng rng;       /* channel IDs */
	void *user;

	/* Allocated channel IDs, drawn from the RNG (never 0 or broadcast, no
	   two equal): another process on the host cannot guess a client's
	   channel and disturb its transaction. chans[0..nchans-1], the
	   oldest at chan_old when the table is full. */
	uint32_t chans[FIDO2_HID_CHANNELS];
	unsigned nchans, chan_old;
	/* Reassembly of the current message. */
	int busy;                /* 1 while a message is being received */
	int processing;          /* 1 while `handle` runs */
	uint32_t cid;            /* channel of the current transaction */
	uint8_t cmd;
	uint16_t bcnt;           /* announced length */
	uint16_t got;            /* bytes received so far */
	uint8_t seq;             /* next expected sequence number */
	uint32_t last_ms;        /* time of the last packet received */
	int cancelled;           /* CANCEL seen for cid while processing */
	uint8_t msg[FIDO2_HID_MAX_MSG];
	uint8_t resp[FIDO2_HID_MAX_MSG];
	/* Version numbers reported by INIT. */
	uint8_t ver_major, ver_minor, ver_build;
};

/* rng: the platform's random source (channel IDs); a failing rng makes
   INIT on broadcast answer ERR_OTHER. */
void fido2_hid_init(fido2_hid *hid, fido2_hid_sender send,
	fido2_hid_handler handle, fido2_hid_winker wink, fido2_hid_rng rng,
	void *user);
/* One received report; returns 0, or the CTAPHID error code it answered. */
int fido2_hid_input(fido2_hid *hid, const uint8_t rpt[64], uint32_t now_ms);
/* Aborts a partially received message after FIDO2_HID_TIMEOUT_MS of
   silence (answering ERR_MSG_TIMEOUT). */
void fido2_hid_tick(fido2_hid *hid, uint32_t now_ms);
/* While `handle` runs: send KEEPALIVE with the given status. */
void fido2_hid_keepalive(fido2_hid *hid, uint8_t status);
/* While `handle` runs: a report arrived. Answers ERR_CHANNEL_BUSY to other
   channels; returns 1 if it is a CANCEL for the current channel. */
int fido2_hid_poll_busy(fido2_hid *hid, const uint8_t rpt[64]);
/* Sends a complete message (fragmented) on a channel. */
void fido2_hid_send_msg(fido2_hid *hid, uint32_t cid, uint8_t cmd,
	const uint8_t *data, size_t len);

#endif
