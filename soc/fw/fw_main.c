/*
 * fw_main.c -- the firmware's request loop on the host mailbox
 * (protocol: soc/fw/soc_proto.h). Each request runs one whole Falcon
 * operation with the core library (src/, emulated floating point) on the
 * kernel table its mode selects (fw_accel.c); the reply carries the
 * result and the mcycle count of the operation. A malformed request gets
 * an error reply and the loop goes on; so does a CPU exception (crt0.S
 * sends it to fw_trap with a fresh stack).
 */
#include <string.h>

#include "falcon_accel.h"
#include "falcon_accel_kem.h"
#include "fw_accel.h"
#include "fw_hal.h"
#include "fw_link.h"
#include "soc_proto.h"
#include "inner.h"
#include "kernels.h"

/* Buffer sizes. The default build serves every degree up to logn 10 with
   requests and replies of up to FA_SOC_MAX_MSG bytes; a board's build
   (soc/fw/Makefile MAX_LOGN=, REQ_MAX=, RSP_MAX=; soc/boards/build_board.sh
   takes them from soc/data/configs.json) may serve fewer degrees and take
   shorter requests: a request for a larger degree gets BAD_DEGREE, a longer
   request BAD_LENGTH (FRAME_LENGTH on the UART link), as in the default
   build beyond its limits. The reply buffer must hold the largest reply
   (checked below). */
#ifndef FW_MAX_LOGN
#define FW_MAX_LOGN 10
#endif
#ifndef FW_REQ_MAX
#define FW_REQ_MAX FA_SOC_MAX_MSG
#endif
#ifndef FW_RSP_MAX
#define FW_RSP_MAX FA_SOC_MAX_MSG
#endif
#define LOGN_MAX ((unsigned)FW_MAX_LOGN)
#define SEED_MAX 64u

typedef char fw_max_logn_ok[FW_MAX_LOGN >= 1 && FW_MAX_LOGN <= 10 ? 1 : -1];
typedef char fw_req_max_ok[FW_REQ_MAX <= FA_SOC_MAX_MSG && FW_REQ_MAX % 8 == 0 ? 1 : -1];
/* the largest replies: KEYGEN (sk, pk), ML-KEM-1024 KEM_KEYGEN (ek, dk),
   KSTATS (20 bytes a kernel) */
typedef char fw_rsp_max_ok[FW_RSP_MAX <= FA_SOC_MAX_MSG
	&& FA_SOC_RSP_HDR + 8 + FA_PRIVKEY_SIZE(FW_MAX_LOGN) + FA_PUBKEY_SIZE(FW_MAX_LOGN) <= FW_RSP_MAX
	&& FA_SOC_RSP_HDR + 8 + FA_KEM_EK_MAXSIZE + FA_KEM_DK_MAXSIZE <= FW_RSP_MAX
	&& FA_SOC_RSP_HDR + 4 + FA_RTL_K_COUNT * 20 <= FW_RSP_MAX ? 1 : -1];

/* Buffers for the largest degree (LOGN_MAX). */
static uint8_t req_buf[FW_REQ_MAX] __attribute__((aligned(8)));
static uint8_t rsp_buf[FW_RSP_MAX] __attribute__((aligned(8)));
static uint8_t sk_buf[FA_PRIVKEY_SIZE(LOGN_MAX)];
static uint8_t pk_buf[FA_PUBKEY_SIZE(LOGN_MAX)];
static uint8_t sig_buf[FA_SIG_MAXSIZE(LOGN_MAX)];
#define TMP_MAX (FA_TMPSIZE_SIGN_DYN(LOGN_MAX) > FA_TMPSIZE_KEYGEN(LOGN_MAX) \
	? FA_TMPSIZE_SIGN_DYN(LOGN_MAX) : FA_TMPSIZE_KEYGEN(LOGN_MAX))
static uint8_t tmp_buf[TMP_MAX] __attribute__((aligned(8)));
static uint8_t ek_buf[FA_EXPANDED_KEY_SIZE(LOGN_MAX)] __attribute__((aligned(8)));

static void rsp_stats(uint64_t cycles, uint64_t aux, const fw_stats *s)
{
	fw_rsp_put64(FA_SOC_RSP_CYCLES_OFF, cycles);
	fw_rsp_put64(FA_SOC_RSP_AUX_OFF, aux);
	fw_rsp_put32(FA_SOC_RSP_ACC_OFF, s->acc_compute);
	fw_rsp_put32(FA_SOC_RSP_BUS_OFF, s->acc_bus);
	fw_rsp_put32(FA_SOC_RSP_DMA_OFF, s->dma);
	fw_rsp_put32(FA_SOC_RSP_KCALLS_OFF, s->kcalls);
}

/* A private / public key of degree logn, exactly; else the status. */
static unsigned check_sk(const fw_field *f, unsigned logn)
{
	return fw_key_status(f, (uint8_t)(0x50 + logn), FA_PRIVKEY_SIZE(logn));
}

static unsigned check_pk(const fw_field *f, unsigned logn)
{
	return fw_key_status(f, (uint8_t)logn, FA_PUBKEY_SIZE(logn));
}

/* aux of a PUBKEY reply: the cycles of h = g/f mod q alone
   (fa_compute_public on f, g decoded again, with the mode's kernels),
   what seed 000's "KeyGen (compute pk)" covers; fa_make_public also
   decodes all of the private key and checks it (fG - gF = q, norms).
   The key was accepted by fa_make_public just before. */
static uint64_t pubkey_h_cycles(const fa_backend *be, const uint8_t *sk,
	size_t sk_len)
{
	/* tmp_buf: f, g, F (NMAX bytes each), then h and the scratch of
	   fa_compute_public (2n bytes each; 3 NMAX keeps them aligned) */
	const size_t nmax = (size_t)1 << LOGN_MAX;
	int8_t *f = (int8_t *)tmp_buf, *g = f + nmax, *F = g + nmax;
	uint16_t *h = (uint16_t *)(void *)(tmp_buf + 3 * nmax);
	unsigned logn;
	uint64_t t0, t1;

	if (fa_privkey_decode(f, g, F, &logn, sk, sk_len) != FA_OK) {
		return 0;
	}
	t0 = fw_cycles();
	if (!fa_compute_public(h, f, g, logn, (uint8_t *)(h + nmax),
		fa_kernels_resolve(be)))
	{
		return 0;
	}
	t1 = fw_cycles();
	return t1 - t0;
}

/* ML-KEM requests (FA_SOC_OP_KEM_*): the header's logn byte is the rank
   k (2, 3, 4: ML-KEM-512, -768, -1024). KEYGEN: field d || z (64 bytes)
   -> ek, dk; ENCAPS: ek, m (32) -> ct, ss; DECAPS: dk, ct -> ss. The
   kernels are those of the mode (fw_accel.c: the NTT, inverse, base
   multiplication and the four-sponge Keccak on the accelerator). */
static uint8_t kem_ek[FA_KEM_EK_MAXSIZE], kem_dk[FA_KEM_DK_MAXSIZE];
static uint8_t kem_ct[FA_KEM_CT_MAXSIZE];
typedef char kem_tmp_fits[FA_KEM_TMPSIZE_MAX <= sizeof tmp_buf ? 1 : -1];

static void serve_kem(const fw_request *rq)
{
	unsigned k = rq->logn, lv = 256u * k, nf;
	const fa_backend *be;
	fw_field f[2];
	fw_stats stats;
	uint64_t t0, t1;
	uint8_t ss[FA_KEM_SS_SIZE];
	int rc, bad;

	if (k < 2 || k > 4) {
		fw_rsp_status(FA_SOC_ST_BAD_DEGREE);
		return;
	}
	be = fw_backend(rq->mode == FA_SOC_MODE_KEMENC ? FA_SOC_MODE_DMA : rq->mode);
	if (be == NULL) {
		fw_rsp_status(FA_SOC_ST_BAD_MODE);
		return;
	}
	nf = rq->op == FA_SOC_OP_KEM_KEYGEN ? 1 : 2;
	bad = fw_fields(rq->body, rq->body_len, f, nf) != 0;
	if (rq->op == FA_SOC_OP_KEM_KEYGEN) {
		bad = bad || f[0].len != 2 * FA_KEM_SEED_SIZE;
	} else if (rq->op == FA_SOC_OP_KEM_ENCAPS) {
		bad = bad || f[0].len != FA_KEM_EK_SIZE(lv)
			|| f[1].len != FA_KEM_SEED_SIZE;
	} else {
		bad = bad || f[0].len != FA_KEM_DK_SIZE(lv)
			|| f[1].len != FA_KEM_CT_SIZE(lv);
	}
	if (bad) {
		fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
		return;
	}
	fw_stats_begin();
	t0 = fw_cycles();
	if (rq->op == FA_SOC_OP_KEM_KEYGEN) {
		rc = fa_kem_keygen_derand(be, lv, kem_ek, sizeof kem_ek, kem_dk,
			sizeof kem_dk, f[0].p, f[0].p + 32, tmp_buf, sizeof tmp_buf);
	} else if (rq->op == FA_SOC_OP_KEM_ENCAPS && rq->mode == FA_SOC_MODE_KEMENC
		&& k == 3 && fw_kemenc_available())
	{
		/* the whole encapsulation on the encaps sequencer (hw/mlkem) */
		rc = fw_kemenc_encaps(f[0].p, f[1].p, kem_ct, ss);
	} else if (rq->op == FA_SOC_OP_KEM_ENCAPS) {
		rc = fa_kem_encaps_derand(be, lv, kem_ct, sizeof kem_ct, ss,
			f[0].p, f[0].len, f[1].p, tmp_buf, sizeof tmp_buf);
	} else {
		rc = fa_kem_decaps(be, lv, ss, f[1].p, f[1].len, f[0].p,
			f[0].len, tmp_buf, sizeof tmp_buf);
	}
	t1 = fw_cycles();
	fw_stats_end(&stats);
	if (rc == FA_OK && !stats.error) {
		if (rq->op == FA_SOC_OP_KEM_KEYGEN) {
			fw_rsp_field(kem_ek, FA_KEM_EK_SIZE(lv));
			fw_rsp_field(kem_dk, FA_KEM_DK_SIZE(lv));
		} else if (rq->op == FA_SOC_OP_KEM_ENCAPS) {
			fw_rsp_field(kem_ct, FA_KEM_CT_SIZE(lv));
			fw_rsp_field(ss, sizeof ss);
		} else {
			fw_rsp_field(ss, sizeof ss);
		}
	}
	fw_rsp_put32(FA_SOC_RSP_LIBRC_OFF, (uint32_t)rc);
	rsp_stats(t1 - t0, 0, &stats);
	fw_rsp_status(stats.error ? FA_SOC_ST_ACCEL
		: rc == FA_OK ? FA_SOC_ST_OK : FA_SOC_ST_LIB_ERROR);
}

/* Serve one request (header checked, PING answered by fw_link.c). */
static void serve(const fw_request *rq)
{
	uint32_t op = rq->op;
	unsigned logn = rq->logn, mode = rq->mode, st;
	const fa_backend *be;
	fw_field f[4];
	fa_shake256_ctx rng;
	fw_stats stats;
	uint64_t t0, t1, t2;
	int rc = 0;
	size_t sig_len;

	if (op == FA_SOC_OP_KSTATS) {
		const fa_rtl_kstat *ks = fw_kstats();
		uint8_t tab[FA_RTL_K_COUNT * 20];
		unsigned i;

		if (rq->body_len != 0) {
			fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		for (i = 0; i < FA_RTL_K_COUNT; i ++) {
			fa_soc_put32(tab + 20 * i, (uint32_t)ks[i].calls);
			fw_put64(tab + 20 * i + 4, ks[i].cycles);
			fw_put64(tab + 20 * i + 12, ks[i].cycles_with_transfer);
		}
		fw_rsp_status(FA_SOC_ST_OK);
		fw_rsp_field(tab, sizeof tab);
		return;
	}
	if (op >= FA_SOC_OP_KEM_KEYGEN && op <= FA_SOC_OP_KEM_DECAPS) {
		serve_kem(rq);
		return;
	}
	if (op < FA_SOC_OP_KEYGEN || op > FA_SOC_OP_PUBKEY) {
		fw_rsp_status(FA_SOC_ST_BAD_OP);
		return;
	}
	if (logn < 1 || logn > LOGN_MAX) {
		fw_rsp_status(FA_SOC_ST_BAD_DEGREE);
		return;
	}
	be = fw_backend(mode);
	if (be == NULL) {
		fw_rsp_status(FA_SOC_ST_BAD_MODE);
		return;
	}
	t2 = 0;
	switch (op) {
	case FA_SOC_OP_KEYGEN:
		if (fw_fields(rq->body, rq->body_len, f, 1)
			!= 0 || f[0].len == 0 || f[0].len > SEED_MAX)
		{
			fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
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
			fw_rsp_field(sk_buf, FA_PRIVKEY_SIZE(logn));
			fw_rsp_field(pk_buf, FA_PUBKEY_SIZE(logn));
		}
		break;
	case FA_SOC_OP_SIGN_DYN:
	case FA_SOC_OP_SIGN_TREE:
		if (fw_fields(rq->body, rq->body_len, f, 4)
			!= 0 || f[1].len != FA_NONCE_SIZE || f[2].len == 0
			|| f[2].len > SEED_MAX)
		{
			fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		st = check_sk(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			fw_rsp_status(st);
			return;
		}
		fw_stats_begin();
		sig_len = FA_SIG_COMPRESSED_MAXSIZE(logn);
		t0 = fw_cycles();
		if (op == FA_SOC_OP_SIGN_TREE) {
			rc = fa_expand_privkey(be, ek_buf, FA_EXPANDED_KEY_SIZE(logn),
				f[0].p, f[0].len, tmp_buf, sizeof tmp_buf);
			/* the counters and KSTATS of the reply: signing only,
			   as its cycles (the expansion's are aux) */
			fw_stats_begin();
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
			fw_rsp_field(sig_buf, (uint32_t)sig_len);
		}
		break;
	case FA_SOC_OP_VERIFY:
		if (fw_fields(rq->body, rq->body_len, f, 3)
			!= 0 || f[1].len == 0 || f[1].len > FA_SIG_MAXSIZE(logn))
		{
			fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		st = check_pk(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			fw_rsp_status(st);
			return;
		}
		fw_stats_begin();
		t0 = fw_cycles();
		rc = fa_verify(be, f[1].p, f[1].len, 0, f[0].p, f[0].len,
			f[2].p, f[2].len, tmp_buf, sizeof tmp_buf);
		t1 = fw_cycles();
		fw_stats_end(&stats);
		/* an invalid signature is an answer, not an error */
		fw_rsp_put32(FA_SOC_RSP_LIBRC_OFF, (uint32_t)rc);
		rsp_stats(t1 - t0, 0, &stats);
		fw_rsp_status(stats.error ? FA_SOC_ST_ACCEL : FA_SOC_ST_OK);
		return;
	default: /* FA_SOC_OP_PUBKEY */
		if (fw_fields(rq->body, rq->body_len, f, 1)
			!= 0)
		{
			fw_rsp_status(FA_SOC_ST_BAD_LENGTH);
			return;
		}
		st = check_sk(&f[0], logn);
		if (st != FA_SOC_ST_OK) {
			fw_rsp_status(st);
			return;
		}
		fw_stats_begin();
		t0 = fw_cycles();
		rc = fa_make_public(pk_buf, FA_PUBKEY_SIZE(logn), f[0].p, f[0].len,
			tmp_buf, sizeof tmp_buf);
		t1 = fw_cycles();
		fw_stats_end(&stats);
		if (rc == FA_OK) {
			fw_rsp_field(pk_buf, FA_PUBKEY_SIZE(logn));
			t2 = pubkey_h_cycles(be, f[0].p, f[0].len);
		}
		break;
	}
	fw_rsp_put32(FA_SOC_RSP_LIBRC_OFF, (uint32_t)rc);
	rsp_stats(t1 - t0, t2, &stats);
	if (stats.error) {
		fw_rsp_status(FA_SOC_ST_ACCEL);
		fw_rsp_len = FA_SOC_RSP_HDR;
	} else {
		fw_rsp_status(rc == FA_OK ? FA_SOC_ST_OK : FA_SOC_ST_LIB_ERROR);
	}
}

static uint32_t accel_id(void)
{
	return mmio_rd(FA_SOC_ACCEL_BASE);
}

static const fw_link_config link = {
	.name = "fw",
	.req_buf = req_buf,
	.req_max = sizeof req_buf,
	.rsp_buf = rsp_buf,
	.serve = serve,
	.ping_word = accel_id,
};

void fw_main(void)
{
	fw_puts("falcon-accel SoC firmware\n");
	fw_link_run(&link);
}
