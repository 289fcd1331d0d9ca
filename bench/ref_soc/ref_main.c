/*
 * ref_main.c -- a firmware for the falcon-accel SoC (hw/soc) that runs
 * the Falcon round-3 reference implementation (Falcon-impl-20211101,
 * fetched and built by bench/ref_soc/build_ref_fw.sh, never stored in this
 * repository) with its integer-emulated floating point (FALCON_FPEMU=1),
 * so that our firmware-only figures can be set beside the reference's on
 * the same core, compiler and flags.
 *
 * It answers the host link protocol of fw/soc_proto.h (the same framing,
 * ops and reply header as fw/fw_main.c), so the host side is unchanged:
 * `falcon-accel bench --backend soc` with FALCON_ACCEL_SOC_FW pointing at
 * this image, or hw/soc/util/soc_link.py. Only the firmware-only mode
 * exists here (mode != FW answers BAD_MODE; KSTATS answers BAD_OP).
 *
 * Inputs and timing match fw_main.c: the keygen RNG is SHAKE256(seed);
 * signing hashes nonce || message with SHAKE256 and draws its sampler
 * seed from SHAKE256(seed); cycles are mcycle around the whole library
 * work (hashing included); sign_tree reports the signing in `cycles` and
 * the key expansion in `cycles_aux`. Signatures are in the compressed
 * format.
 */
#include <stdint.h>
#include <string.h>

#include "falcon.h"
#include "fw_hal.h"
#include "soc_proto.h"

#define REF_LOGN_MAX 10u
#define REF_SEED_MAX 64u
#define REF_NONCE 40u

static uint8_t req_buf[FA_SOC_MAX_MSG] __attribute__((aligned(8)));
static uint8_t rsp_buf[FA_SOC_MAX_MSG] __attribute__((aligned(8)));
static uint8_t sk_buf[FALCON_PRIVKEY_SIZE(REF_LOGN_MAX)];
static uint8_t pk_buf[FALCON_PUBKEY_SIZE(REF_LOGN_MAX)];
static uint8_t sig_buf[FALCON_SIG_COMPRESSED_MAXSIZE(REF_LOGN_MAX)];
/* scratch for every operation at logn 10; sign_dyn needs the most */
#define REF_TMP_MAX FALCON_TMPSIZE_SIGNDYN(REF_LOGN_MAX)
static uint8_t tmp_buf[REF_TMP_MAX] __attribute__((aligned(8)));
static uint8_t ek_buf[FALCON_EXPANDEDKEY_SIZE(REF_LOGN_MAX)]
	__attribute__((aligned(8)));

_Static_assert(REF_TMP_MAX >= FALCON_TMPSIZE_KEYGEN(10)
	&& REF_TMP_MAX >= FALCON_TMPSIZE_EXPANDPRIV(10)
	&& REF_TMP_MAX >= FALCON_TMPSIZE_SIGNTREE(10)
	&& REF_TMP_MAX >= FALCON_TMPSIZE_VERIFY(10)
	&& REF_TMP_MAX >= FALCON_TMPSIZE_MAKEPUB(10),
	"tmp_buf holds every operation's scratch");

static volatile uint32_t cur_op, cur_seq;
static uint32_t rsp_len;

typedef struct {
	const uint8_t *p;
	uint32_t len;
} ref_field;

static void put64(uint8_t *p, uint64_t v)
{
	fa_soc_put32(p, (uint32_t)v);
	fa_soc_put32(p + 4, (uint32_t)(v >> 32));
}

/* Exactly n fields (u32 length + bytes) covering [p, p + len): 0, else -1. */
static int get_fields(const uint8_t *p, uint32_t len, ref_field *f, unsigned n)
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

static void reply_start(uint32_t op, uint32_t seq)
{
	memset(rsp_buf, 0, FA_SOC_RSP_HDR);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_MAGIC_OFF, FA_SOC_RSP_MAGIC);
	rsp_buf[FA_SOC_RSP_OP_OFF] = (uint8_t)op;
	rsp_buf[FA_SOC_RSP_OP_OFF + 1] = (uint8_t)(op >> 8);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_SEQ_OFF, seq);
	rsp_len = FA_SOC_RSP_HDR;
}

static void reply_status(unsigned st)
{
	rsp_buf[FA_SOC_RSP_STATUS_OFF] = (uint8_t)st;
	rsp_buf[FA_SOC_RSP_STATUS_OFF + 1] = (uint8_t)(st >> 8);
}

static void reply_field(const void *p, uint32_t len)
{
	fa_soc_put32(rsp_buf + rsp_len, len);
	memcpy(rsp_buf + rsp_len + 4, p, len);
	rsp_len += 4 + len;
}

/* Library result: return code, cycles, aux cycles; status from rc. */
static void reply_result(int rc, uint64_t cycles, uint64_t aux)
{
	fa_soc_put32(rsp_buf + FA_SOC_RSP_LIBRC_OFF, (uint32_t)rc);
	put64(rsp_buf + FA_SOC_RSP_CYCLES_OFF, cycles);
	put64(rsp_buf + FA_SOC_RSP_AUX_OFF, aux);
	reply_status(rc == 0 ? FA_SOC_ST_OK : FA_SOC_ST_LIB_ERROR);
	if (rc != 0) {
		rsp_len = FA_SOC_RSP_HDR;
	}
}

static void reply_send(void)
{
	while (mmio_rd(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_STATUS) & 1u) {
	}
	memcpy((void *)(uintptr_t)(FA_SOC_MBOX_BUF_BASE + 0x8000u), rsp_buf,
		(rsp_len + 3u) & ~3u);
	mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_LEN, rsp_len);
	mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_RSP_SEND, 1);
}

/* Private key of exactly degree logn: header 0x50 + logn and its size. */
static unsigned sk_status(const ref_field *f, unsigned logn)
{
	if (f->len == 0) {
		return FA_SOC_ST_BAD_LENGTH;
	}
	if (f->p[0] != (uint8_t)(0x50 + logn)) {
		return FA_SOC_ST_BAD_DEGREE;
	}
	return f->len == FALCON_PRIVKEY_SIZE(logn) ? FA_SOC_ST_OK
		: FA_SOC_ST_BAD_LENGTH;
}

/* Public key of exactly degree logn: header logn and its size. */
static unsigned pk_status(const ref_field *f, unsigned logn)
{
	if (f->len == 0) {
		return FA_SOC_ST_BAD_LENGTH;
	}
	if (f->p[0] != (uint8_t)logn) {
		return FA_SOC_ST_BAD_DEGREE;
	}
	return f->len == FALCON_PUBKEY_SIZE(logn) ? FA_SOC_ST_OK
		: FA_SOC_ST_BAD_LENGTH;
}

static void op_keygen(unsigned logn, const ref_field *f)
{
	shake256_context rng;
	uint64_t t0, t1;
	int rc;

	t0 = fw_cycles();
	shake256_init_prng_from_seed(&rng, f[0].p, f[0].len);
	rc = falcon_keygen_make(&rng, logn, sk_buf, FALCON_PRIVKEY_SIZE(logn),
		pk_buf, FALCON_PUBKEY_SIZE(logn), tmp_buf, sizeof tmp_buf);
	t1 = fw_cycles();
	reply_result(rc, t1 - t0, 0);
	if (rc == 0) {
		reply_field(sk_buf, FALCON_PRIVKEY_SIZE(logn));
		reply_field(pk_buf, FALCON_PUBKEY_SIZE(logn));
	}
}

/* f: sk, nonce, seed, msg. tree != 0: expand (timed apart), then sign. */
static void op_sign(unsigned logn, const ref_field *f, int tree)
{
	shake256_context rng, hd;
	uint64_t t0, t1, t2;
	size_t sig_len = FALCON_SIG_COMPRESSED_MAXSIZE(logn);
	int rc = 0;

	t0 = fw_cycles();
	if (tree) {
		rc = falcon_expand_privkey(ek_buf, FALCON_EXPANDEDKEY_SIZE(logn),
			f[0].p, f[0].len, tmp_buf, sizeof tmp_buf);
	}
	t1 = fw_cycles();
	if (rc == 0) {
		shake256_init(&hd);
		shake256_inject(&hd, f[1].p, REF_NONCE);
		shake256_inject(&hd, f[3].p, f[3].len);
		shake256_init_prng_from_seed(&rng, f[2].p, f[2].len);
		if (tree) {
			rc = falcon_sign_tree_finish(&rng, sig_buf, &sig_len,
				FALCON_SIG_COMPRESSED, ek_buf, &hd, f[1].p,
				tmp_buf, sizeof tmp_buf);
		} else {
			rc = falcon_sign_dyn_finish(&rng, sig_buf, &sig_len,
				FALCON_SIG_COMPRESSED, f[0].p, f[0].len, &hd,
				f[1].p, tmp_buf, sizeof tmp_buf);
		}
	}
	t2 = fw_cycles();
	reply_result(rc, t2 - t1, t1 - t0);
	if (rc == 0) {
		reply_field(sig_buf, (uint32_t)sig_len);
	}
}

static void serve(uint32_t len)
{
	uint32_t op, seq;
	unsigned logn, mode, st, nf;
	ref_field f[4];
	uint64_t t0, t1;
	int rc;

	if (len < FA_SOC_REQ_HDR) {
		reply_start(0, 0);
		reply_status(FA_SOC_ST_BAD_LENGTH);
		return;
	}
	op = (uint32_t)req_buf[4] | ((uint32_t)req_buf[5] << 8);
	logn = req_buf[6];
	mode = req_buf[7];
	seq = fa_soc_get32(req_buf + 8);
	cur_op = op;
	cur_seq = seq;
	reply_start(op, seq);
	if (fa_soc_get32(req_buf) != FA_SOC_REQ_MAGIC) {
		reply_status(FA_SOC_ST_BAD_MAGIC);
		return;
	}
	if (op == FA_SOC_OP_PING) {
		uint8_t info[12];

		if (len != FA_SOC_REQ_HDR) {
			reply_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		fa_soc_put32(info, mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_ID));
		fa_soc_put32(info + 4, mmio_rd(FA_SOC_SOCCTL_BASE + FA_SOC_SOCCTL_CONFIG));
		/* no accelerator driver in this image: the word says "reference" */
		fa_soc_put32(info + 8, 0x52454631u);
		reply_status(FA_SOC_ST_OK);
		reply_field(info, sizeof info);
		return;
	}
	if (op < FA_SOC_OP_KEYGEN || op > FA_SOC_OP_PUBKEY) {
		reply_status(FA_SOC_ST_BAD_OP);
		return;
	}
	if (logn < 1 || logn > REF_LOGN_MAX) {
		reply_status(FA_SOC_ST_BAD_DEGREE);
		return;
	}
	if (mode != FA_SOC_MODE_FW) {
		reply_status(FA_SOC_ST_BAD_MODE);
		return;
	}
	switch (op) {
	case FA_SOC_OP_KEYGEN:
	case FA_SOC_OP_PUBKEY:
		nf = 1;
		break;
	case FA_SOC_OP_VERIFY:
		nf = 3;
		break;
	default:
		nf = 4;
		break;
	}
	if (get_fields(req_buf + FA_SOC_REQ_HDR, len - FA_SOC_REQ_HDR, f, nf) != 0) {
		reply_status(FA_SOC_ST_BAD_LENGTH);
		return;
	}
	switch (op) {
	case FA_SOC_OP_KEYGEN:
		if (f[0].len == 0 || f[0].len > REF_SEED_MAX) {
			reply_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		op_keygen(logn, f);
		return;
	case FA_SOC_OP_SIGN_DYN:
	case FA_SOC_OP_SIGN_TREE:
		if (f[1].len != REF_NONCE || f[2].len == 0 || f[2].len > REF_SEED_MAX) {
			reply_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		st = sk_status(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			reply_status(st);
			return;
		}
		op_sign(logn, f, op == FA_SOC_OP_SIGN_TREE);
		return;
	case FA_SOC_OP_VERIFY:
		if (f[1].len == 0 || f[1].len > FALCON_SIG_COMPRESSED_MAXSIZE(logn)) {
			reply_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		st = pk_status(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			reply_status(st);
			return;
		}
		t0 = fw_cycles();
		rc = falcon_verify(f[1].p, f[1].len, FALCON_SIG_COMPRESSED,
			f[0].p, f[0].len, f[2].p, f[2].len, tmp_buf, sizeof tmp_buf);
		t1 = fw_cycles();
		/* an invalid signature is an answer (lib_rc), not an error */
		reply_result(0, t1 - t0, 0);
		fa_soc_put32(rsp_buf + FA_SOC_RSP_LIBRC_OFF, (uint32_t)rc);
		return;
	default: /* FA_SOC_OP_PUBKEY */
		st = sk_status(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			reply_status(st);
			return;
		}
		t0 = fw_cycles();
		rc = falcon_make_public(pk_buf, FALCON_PUBKEY_SIZE(logn),
			f[0].p, f[0].len, tmp_buf, sizeof tmp_buf);
		t1 = fw_cycles();
		reply_result(rc, t1 - t0, 0);
		if (rc == 0) {
			reply_field(pk_buf, FALCON_PUBKEY_SIZE(logn));
		}
		return;
	}
}

static void __attribute__((noreturn)) serve_forever(void)
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
			reply_start(0, 0);
			reply_status(FA_SOC_ST_BAD_LENGTH);
		} else {
			memcpy(req_buf, (const void *)(uintptr_t)FA_SOC_MBOX_BUF_BASE,
				(len + 3u) & ~3u);
			mmio_wr(FA_SOC_MBOX_BASE + FA_SOC_MBOX_REQ_ACK, 1);
			serve(len);
		}
		reply_send();
	}
}

/* fw/crt0.S enters here on any exception, with a fresh stack. */
void __attribute__((noreturn)) fw_trap(uint32_t mcause, uint32_t mepc,
	uint32_t mtval)
{
	fw_puts("ref_fw: trap mcause=");
	fw_puthex(mcause);
	fw_puts(" mepc=");
	fw_puthex(mepc);
	fw_puts(" mtval=");
	fw_puthex(mtval);
	fw_puts("\n");
	reply_start(cur_op, cur_seq);
	reply_status(FA_SOC_ST_TRAP);
	fa_soc_put32(rsp_buf + FA_SOC_RSP_LIBRC_OFF, mepc);
	put64(rsp_buf + FA_SOC_RSP_AUX_OFF, mcause);
	reply_send();
	serve_forever();
}

void fw_main(void)
{
	fw_puts("ref_fw: Falcon-impl-20211101 (FALCON_FPEMU) on the falcon-accel SoC\n");
	serve_forever();
}
