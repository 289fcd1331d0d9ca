/*
 * fw_link.h -- the host link that every SoC firmware image shares
 * (soc/fw/fw_main.c, apps/fido2/fw/fido2_main.c, soc/ref/ref_main.c): the mailbox
 * request loop, the request header, PING, the reply under construction,
 * length-prefixed request fields, and the reply to a CPU exception.
 * Protocol: soc/fw/soc_proto.h.
 *
 * An image fills an fw_link_config and calls fw_link_run, which never
 * returns. For each request the loop copies it from the mailbox, checks
 * its size (<= req_max), header and magic, starts the reply (op, seq,
 * status OK), answers PING itself, and hands everything else to
 * cfg->serve, which sets the status and appends the reply's fields. A
 * request that is too long, too short or has a wrong magic is answered
 * with an error status and never reaches serve. fw_trap (entered from
 * crt0.S on any exception) answers TRAP for the request being served and
 * goes back to the loop.
 */
#ifndef FW_LINK_H
#define FW_LINK_H

#include <stdint.h>

#include "soc_proto.h"

/* A length-prefixed field of a request (u32 length + bytes). */
typedef struct {
	const uint8_t *p;
	uint32_t len;
} fw_field;

/* A request whose header passed the checks. */
typedef struct {
	uint32_t op, seq;
	unsigned logn, mode;      /* header bytes 6 and 7, not checked */
	const uint8_t *body;      /* the bytes after the header */
	uint32_t body_len;
} fw_request;

typedef struct {
	const char *name;         /* console prefix ("fw", "fido2", ...) */
	uint8_t *req_buf;         /* 8-aligned, req_max bytes */
	uint32_t req_max;
	uint8_t *rsp_buf;         /* 8-aligned, room for the largest reply */
	/* fills the reply begun for rq (status OK until it says otherwise) */
	void (*serve)(const fw_request *rq);
	/* word 3 of PING's answer (the accelerator's ID register, ...) */
	uint32_t (*ping_word)(void);
	/* called by fw_trap before it answers (may be NULL) */
	void (*on_trap)(void);
} fw_link_config;

void fw_link_run(const fw_link_config *cfg) __attribute__((noreturn));

/* Exactly n fields covering [p, p + len): 0, else -1. */
int fw_fields(const uint8_t *p, uint32_t len, fw_field *f, unsigned n);

/* Little-endian u64 (two fa_soc_put32 words). */
static inline void fw_put64(uint8_t *p, uint64_t v)
{
	fa_soc_put32(p, (uint32_t)v);
	fa_soc_put32(p + 4, (uint32_t)(v >> 32));
}

/* The reply under construction: its buffer and length (header included). */
extern uint8_t *fw_rsp;
extern uint32_t fw_rsp_len;

void fw_rsp_status(unsigned st);
void fw_rsp_put32(uint32_t off, uint32_t v);
void fw_rsp_put64(uint32_t off, uint64_t v);
/* Append a field (u32 length + bytes). */
void fw_rsp_field(const void *p, uint32_t len);

/*
 * Status for a key field of exactly degree logn: a first byte `header`
 * (0x50 + logn for a private key, logn for a public key) and `size`
 * bytes; BAD_LENGTH for an empty or wrongly sized field, BAD_DEGREE for
 * another degree.
 */
unsigned fw_key_status(const fw_field *f, uint8_t header, uint32_t size);

#endif
