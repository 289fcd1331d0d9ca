/*
 * fw_main.c -- the firmware's request loop on the host mailbox
 * (protocol: fw/soc_proto.h). Each request runs one whole Falcon
 * operation with the core library (src/, emulated floating point) on the
 * kernel table its mode selects (fw_accel.c); the reply carries the
 * result and the mcycle count of the operation. A malformed request gets
 * an error reply and the loop goes on; so does a CPU exception (crt0.S
 * sends it to fw_trap with a fresh stack).
 */
#include <string.h>

#include "falcon_accel.h"
#include "fw_accel.h"
#include "fw_hal.h"
#include "soc_proto.h"

#define LOGN_MAX 10u
#define SEED_MAX 64u

/* Buffers for the largest degree (logn 10). */
static uint8_t req_buf[FA_SOC_MAX_MSG] __attribute__((aligned(8)));
static uint8_t rsp_buf[FA_SOC_MAX_MSG] __attribute__((aligned(8)));
static uint8_t sk_buf[FA_PRIVKEY_SIZE(LOGN_MAX)];
static uint8_t pk_buf[FA_PUBKEY_SIZE(LOGN_MAX)];
static uint8_t sig_buf[FA_SIG_MAXSIZE(LOGN_MAX)];
#define TMP_MAX (FA_TMPSIZE_SIGN_DYN(LOGN_MAX) > FA_TMPSIZE_KEYGEN(LOGN_MAX) \
	? FA_TMPSIZE_SIGN_DYN(LOGN_MAX) : FA_TMPSIZE_KEYGEN(LOGN_MAX))
static uint8_t tmp_buf[TMP_MAX] __attribute__((aligned(8)));
static uint8_t ek_buf[FA_EXPANDED_KEY_SIZE(LOGN_MAX)] __attribute__((aligned(8)));

/* The request being served (for fw_trap). */
static volatile uint32_t cur_op, cur_seq;

typedef struct {
	const uint8_t *p;
	uint32_t len;
} field;

static void put64(uint8_t *p, uint64_t v)
{
	fa_soc_put32(p, (uint32_t)v);
	fa_soc_put32(p + 4, (uint32_t)(v >> 32));
}

/* Exactly n fields (u32 length + bytes) filling [p, p+len); 0 or -1. */
static int parse_fields(const uint8_t *p, uint32_t len, field *f, unsigned n)
{
	uint32_t pos = 0;
	unsigned i;

	for (i = 0; i < n; i ++) {
		if (len - pos < 4) {
			return -1;
		}
		f[i].len = fa_soc_get32(p + pos);
		pos += 4;
		if (f[i].len > len - pos) {
			return -1;
		}
		f[i].p = p + pos;
		pos += f[i].len;
	}
	return pos == len ? 0 : -1;
}

/* Reply under construction. */
static uint32_t rsp_len;

static void rsp_begin(uint32_t op, uint32_t seq)
{
	memset(rsp_buf, 0, FA_SOC_RSP_HDR);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_MAGIC_OFF, FA_SOC_RSP_MAGIC);
	rsp_buf[FA_SOC_RSP_OP_OFF] = (uint8_t)op;
	rsp_buf[FA_SOC_RSP_OP_OFF + 1] = (uint8_t)(op >> 8);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_SEQ_OFF, seq);
	rsp_len = FA_SOC_RSP_HDR;
}

static void rsp_status(unsigned st)
{
	rsp_buf[FA_SOC_RSP_STATUS_OFF] = (uint8_t)st;
	rsp_buf[FA_SOC_RSP_STATUS_OFF + 1] = 0;
}

static void rsp_field(const void *p, uint32_t len)
{
	fa_soc_put32(rsp_buf + rsp_len, len);
	memcpy(rsp_buf + rsp_len + 4, p, len);
	rsp_len += 4 + len;
}

static void rsp_send(void)
{
	/* the host takes each reply before it sends the next request */
	while (mmio_rd(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_STATUS) & 1u) {
	}
	memcpy((void *)(uintptr_t)(FA_SOC_MBOX_BUF_BASE + 0x8000u), rsp_buf,
		(rsp_len + 3u) & ~3u);
	mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_LEN, rsp_len);
	mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_SEND, 1);
}

static void rsp_stats(uint64_t cycles, uint64_t aux, const fw_stats *s)
{
	put64(rsp_buf + FA_SOC_RSP_CYCLES_OFF, cycles);
	put64(rsp_buf + FA_SOC_RSP_AUX_OFF, aux);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_ACC_OFF, s->acc_compute);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_BUS_OFF, s->acc_bus);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_DMA_OFF, s->dma);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_KCALLS_OFF, s->kcalls);
}

/* A private key of degree logn, exactly; else the status to answer. */
static unsigned check_sk(const field *f, unsigned logn)
{
	int kl = fa_get_logn(f->p, f->len);

	if (f->len == 0 || kl < 0 || (unsigned)kl != logn
		|| f->p[0] != (uint8_t)(0x50 + logn))
	{
		return f->len == 0 ? FA_SOC_ST_BAD_LENGTH : FA_SOC_ST_BAD_DEGREE;
	}
	return f->len == FA_PRIVKEY_SIZE(logn) ? FA_SOC_ST_OK
		: FA_SOC_ST_BAD_LENGTH;
}

static unsigned check_pk(const field *f, unsigned logn)
{
	if (f->len == 0) {
		return FA_SOC_ST_BAD_LENGTH;
	}
	if (f->p[0] != (uint8_t)logn) {
		return FA_SOC_ST_BAD_DEGREE;
	}
	return f->len == FA_PUBKEY_SIZE(logn) ? FA_SOC_ST_OK
		: FA_SOC_ST_BAD_LENGTH;
}

/* Serve one request of `len` bytes in req_buf; fills the reply. */
static void serve(uint32_t len)
{
	uint32_t op, seq;
	unsigned logn, mode, st;
	const fa_backend *be;
	field f[4];
	fa_shake256_ctx rng;
	fw_stats stats;
	uint64_t t0, t1, t2;
	int rc = 0;
	size_t sig_len;

	if (len < FA_SOC_REQ_HDR) {
		rsp_begin(0, 0);
		rsp_status(FA_SOC_ST_BAD_LENGTH);
		return;
	}
	op = (uint32_t)req_buf[4] | ((uint32_t)req_buf[5] << 8);
	logn = req_buf[6];
	mode = req_buf[7];
	seq = fa_soc_get32(req_buf + 8);
	cur_op = op;
	cur_seq = seq;
	rsp_begin(op, seq);
	if (fa_soc_get32(req_buf) != FA_SOC_REQ_MAGIC) {
		rsp_status(FA_SOC_ST_BAD_MAGIC);
		return;
	}
	if (op == FA_SOC_OP_PING) {
		uint8_t info[12];

		if (len != FA_SOC_REQ_HDR) {
			rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		fa_soc_put32(info, mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_ID));
		fa_soc_put32(info + 4, mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_CONFIG));
		fa_soc_put32(info + 8, mmio_rd(FA_SOC_ACCEL_BASE));
		rsp_status(FA_SOC_ST_OK);
		rsp_field(info, sizeof info);
		return;
	}
	if (op == FA_SOC_OP_KSTATS) {
		const fa_rtl_kstat *ks = fw_kstats();
		uint8_t tab[FA_RTL_K_COUNT * 20];
		unsigned i;

		if (len != FA_SOC_REQ_HDR) {
			rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		for (i = 0; i < FA_RTL_K_COUNT; i ++) {
			fa_soc_put32(tab + 20 * i, (uint32_t)ks[i].calls);
			put64(tab + 20 * i + 4, ks[i].cycles);
			put64(tab + 20 * i + 12, ks[i].cycles_with_transfer);
		}
		rsp_status(FA_SOC_ST_OK);
		rsp_field(tab, sizeof tab);
		return;
	}
	if (op < FA_SOC_OP_KEYGEN || op > FA_SOC_OP_PUBKEY) {
		rsp_status(FA_SOC_ST_BAD_OP);
		return;
	}
	if (logn < 1 || logn > LOGN_MAX) {
		rsp_status(FA_SOC_ST_BAD_DEGREE);
		return;
	}
	be = fw_backend(mode);
	if (be == NULL) {
		rsp_status(FA_SOC_ST_BAD_MODE);
		return;
	}
	t2 = 0;
	switch (op) {
	case FA_SOC_OP_KEYGEN:
		if (parse_fields(req_buf + FA_SOC_REQ_HDR, len - FA_SOC_REQ_HDR, f, 1)
			!= 0 || f[0].len == 0 || f[0].len > SEED_MAX)
		{
			rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		fw_stats_begin();
		t0 = fw_cycles();
		fa_shake256_init_prng_from_seed(&rng, f[0].p, f[0].len);
		rc = fa_keygen(be, &rng, logn, sk_buf, FA_PRIVKEY_SIZE(logn),
			pk_buf, FA_PUBKEY_SIZE(logn), tmp_buf, sizeof tmp_buf);
		t1 = fw_cycles();
		fw_stats_end(&stats);
		if (rc == FA_OK) {
			rsp_field(sk_buf, FA_PRIVKEY_SIZE(logn));
			rsp_field(pk_buf, FA_PUBKEY_SIZE(logn));
		}
		break;
	case FA_SOC_OP_SIGN_DYN:
	case FA_SOC_OP_SIGN_TREE:
		if (parse_fields(req_buf + FA_SOC_REQ_HDR, len - FA_SOC_REQ_HDR, f, 4)
			!= 0 || f[1].len != FA_NONCE_SIZE || f[2].len == 0
			|| f[2].len > SEED_MAX)
		{
			rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		st = check_sk(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			rsp_status(st);
			return;
		}
		fw_stats_begin();
		sig_len = FA_SIG_COMPRESSED_MAXSIZE(logn);
		t0 = fw_cycles();
		if (op == FA_SOC_OP_SIGN_TREE) {
			rc = fa_expand_privkey(be, ek_buf, FA_EXPANDED_KEY_SIZE(logn),
				f[0].p, f[0].len, tmp_buf, sizeof tmp_buf);
			t2 = fw_cycles();
			if (rc == FA_OK) {
				fa_shake256_init_prng_from_seed(&rng, f[2].p, f[2].len);
				rc = fa_sign_tree_ex(be, f[1].p, &rng, sig_buf, &sig_len,
					FA_SIG_COMPRESSED, ek_buf, f[3].p, f[3].len,
					tmp_buf, sizeof tmp_buf);
			}
			t1 = fw_cycles();
			/* cycles: signing; aux: expansion */
			{
				uint64_t exp = t2 - t0;
				t0 = t2;
				t2 = exp;
			}
		} else {
			fa_shake256_init_prng_from_seed(&rng, f[2].p, f[2].len);
			rc = fa_sign_dyn_ex(be, f[1].p, &rng, sig_buf, &sig_len,
				FA_SIG_COMPRESSED, f[0].p, f[0].len, f[3].p, f[3].len,
				tmp_buf, sizeof tmp_buf);
			t1 = fw_cycles();
		}
		fw_stats_end(&stats);
		if (rc == FA_OK) {
			rsp_field(sig_buf, (uint32_t)sig_len);
		}
		break;
	case FA_SOC_OP_VERIFY:
		if (parse_fields(req_buf + FA_SOC_REQ_HDR, len - FA_SOC_REQ_HDR, f, 3)
			!= 0 || f[1].len == 0 || f[1].len > FA_SIG_MAXSIZE(logn))
		{
			rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		st = check_pk(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			rsp_status(st);
			return;
		}
		fw_stats_begin();
		t0 = fw_cycles();
		rc = fa_verify(be, f[1].p, f[1].len, 0, f[0].p, f[0].len,
			f[2].p, f[2].len, tmp_buf, sizeof tmp_buf);
		t1 = fw_cycles();
		fw_stats_end(&stats);
		/* an invalid signature is an answer, not an error */
		fa_soc_put32(rsp_buf + FA_SOC_RSP_LIBRC_OFF, (uint32_t)rc);
		rsp_stats(t1 - t0, 0, &stats);
		rsp_status(stats.error ? FA_SOC_ST_ACCEL : FA_SOC_ST_OK);
		return;
	default: /* FA_SOC_OP_PUBKEY */
		if (parse_fields(req_buf + FA_SOC_REQ_HDR, len - FA_SOC_REQ_HDR, f, 1)
			!= 0)
		{
			rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		st = check_sk(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			rsp_status(st);
			return;
		}
		fw_stats_begin();
		t0 = fw_cycles();
		rc = fa_make_public(pk_buf, FA_PUBKEY_SIZE(logn), f[0].p, f[0].len,
			tmp_buf, sizeof tmp_buf);
		t1 = fw_cycles();
		fw_stats_end(&stats);
		if (rc == FA_OK) {
			rsp_field(pk_buf, FA_PUBKEY_SIZE(logn));
		}
		break;
	}
	fa_soc_put32(rsp_buf + FA_SOC_RSP_LIBRC_OFF, (uint32_t)rc);
	rsp_stats(t1 - t0, t2, &stats);
	if (stats.error) {
		rsp_status(FA_SOC_ST_ACCEL);
		rsp_len = FA_SOC_RSP_HDR;
	} else {
		rsp_status(rc == FA_OK ? FA_SOC_ST_OK : FA_SOC_ST_LIB_ERROR);
	}
}

static void __attribute__((noreturn)) serve_loop(void)
{
	for (;;) {
		uint32_t len;

		while ((mmio_rd(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_STATUS) & 1u) == 0) {
		}
		len = mmio_rd(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_LEN);
		cur_op = 0;
		cur_seq = 0;
		if (len > FA_SOC_MAX_MSG) {
			mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_ACK, 1);
			rsp_begin(0, 0);
			rsp_status(FA_SOC_ST_BAD_LENGTH);
		} else {
			memcpy(req_buf, (const void *)(uintptr_t)FA_SOC_MBOX_BUF_BASE,
				(len + 3u) & ~3u);
			mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_ACK, 1);
			serve(len);
		}
		rsp_send();
	}
}

/* From crt0.S on any exception, with a fresh stack. */
void __attribute__((noreturn)) fw_trap(uint32_t mcause, uint32_t mepc,
	uint32_t mtval)
{
	fw_puts("fw: trap mcause=");
	fw_puthex(mcause);
	fw_puts(" mepc=");
	fw_puthex(mepc);
	fw_puts(" mtval=");
	fw_puthex(mtval);
	fw_puts("\n");
	rsp_begin(cur_op, cur_seq);
	rsp_status(FA_SOC_ST_TRAP);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_LIBRC_OFF, mepc);
	put64(rsp_buf + FA_SOC_RSP_AUX_OFF, mcause);
	rsp_send();
	serve_loop();
}

void fw_main(void)
{
	fw_puts("falcon-accel SoC firmware: serving the host mailbox\n");
	serve_loop();
}
