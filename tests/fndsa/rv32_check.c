/*
 * FN-DSA on rv32imc/ilp32: the freestanding library (emulated floating
 * point, built by scripts/build_rv32.sh) reproduces fn-dsa 0.4.0's records
 * (tests/fndsa/vectors.txt, through the header rv32_vectors.py writes):
 * the key pair from the 32-byte seed, the signature from the 40-byte seed
 * in every mode (pure, context, pre-hash SHA-256 and SHA-512, external mu)
 * at logn 9 and pure at logn 10, verification of it, and the refusal of a
 * signature with one bit flipped.
 *
 * A Linux user-mode program for qemu-riscv32 (tests/fndsa/rv32_check.sh):
 * its own _start, write and exit through ecall, and the four memory
 * functions the library needs; no libc. One line per record, then
 * "rv32 fndsa: N passed, N failed"; exit status 0 iff none failed.
 */
#include <stddef.h>
#include <stdint.h>

#include "falcon_accel.h"
#include "rv32_user_rt.h"
#include "rv32_vectors.h"

/* ---- output (system calls and memory functions: tests/common/rv32_user_rt.h) */

static void out_int(long v)
{
	if (v < 0) {
		out("-");
		out_uint((unsigned long)-v);
	} else {
		out_uint((unsigned long)v);
	}
}

/* ---- the check */

static uint8_t tmp[FA_TMPSIZE_FNDSA_SIGN(10)];
static uint8_t sk[FA_FNDSA_PRIVKEY_SIZE(10)], pk[FA_FNDSA_PUBKEY_SIZE(10)];
static uint8_t sig[FA_FNDSA_SIG_SIZE(10)];
static unsigned passed, failed;

static void check(int ok, unsigned logn, int mode, const char *what, int r)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	out("FAIL logn ");
	out_uint(logn);
	out(" ");
	out(MODE_NAMES[mode]);
	out(": ");
	out(what);
	out(" (r=");
	out_int(r);
	out(")\n");
}

static int ph_of(int mode)
{
	return mode == 2 ? FA_FNDSA_PH_SHA256 : mode == 3 ? FA_FNDSA_PH_SHA512
		: FA_FNDSA_PH_NONE;
}

static void one(const struct rv32_vec *v)
{
	const fa_backend *be = fa_backend_default();
	size_t skl = FA_FNDSA_PRIVKEY_SIZE(v->logn), pkl = FA_FNDSA_PUBKEY_SIZE(v->logn);
	size_t sgl = FA_FNDSA_SIG_SIZE(v->logn), ml = v->msg_len;
	const uint8_t *m = v->msg;
	const uint8_t *ctx = v->ctx_len ? v->ctx : NULL;
	uint8_t h[64], mu[64];
	int ph = ph_of(v->mode), r;

	r = fa_fndsa_keygen_seed(be, v->kseed, v->logn, sk, skl, pk, pkl, tmp, sizeof tmp);
	check(r == FA_OK && memcmp(sk, v->sk, skl) == 0 && memcmp(pk, v->pk, pkl) == 0,
		v->logn, v->mode, "key pair from the seed", r);
	if (ph != FA_FNDSA_PH_NONE) {
		r = fa_fndsa_prehash(h, ph, v->msg, v->msg_len);
		check(r == FA_OK, v->logn, v->mode, "pre-hash", r);
		m = h;
		ml = (size_t)fa_fndsa_ph_size(ph);
	}
	if (v->mode == 4) {
		r = fa_fndsa_compute_mu(mu, v->pk, pkl, ctx, v->ctx_len,
			FA_FNDSA_PH_NONE, v->msg, v->msg_len);
		check(r == FA_OK, v->logn, v->mode, "mu", r);
		r = fa_fndsa_sign_mu(be, NULL, v->sseed, sig, sgl, v->sk, skl, mu,
			tmp, sizeof tmp);
	} else {
		r = fa_fndsa_sign_seed(be, v->sseed, sig, sgl, v->sk, skl, ctx,
			v->ctx_len, ph, m, ml, tmp, sizeof tmp);
	}
	check(r == FA_OK && memcmp(sig, v->sig, sgl) == 0, v->logn, v->mode,
		"signature from the seed", r);
	if (v->mode == 4) {
		r = fa_fndsa_verify_mu(be, v->sig, sgl, v->pk, pkl, mu, tmp, sizeof tmp);
	} else {
		r = fa_fndsa_verify(be, v->sig, sgl, v->pk, pkl, ctx, v->ctx_len,
			ph, m, ml, tmp, sizeof tmp);
	}
	check(r == FA_OK, v->logn, v->mode, "verification", r);
	memcpy(sig, v->sig, sgl);
	sig[sgl / 2] ^= 0x10;
	if (v->mode == 4) {
		r = fa_fndsa_verify_mu(be, sig, sgl, v->pk, pkl, mu, tmp, sizeof tmp);
	} else {
		r = fa_fndsa_verify(be, sig, sgl, v->pk, pkl, ctx, v->ctx_len,
			ph, m, ml, tmp, sizeof tmp);
	}
	check(r != FA_OK, v->logn, v->mode, "a flipped signature bit refused", r);
	out("logn ");
	out_uint(v->logn);
	out(" ");
	out(MODE_NAMES[v->mode]);
	out(": done\n");
}

int rv32_main(void);

int rv32_main(void)
{
	size_t i;
	for (i = 0; i < sizeof VECS / sizeof VECS[0]; i++) {
		one(&VECS[i]);
	}
	out("rv32 fndsa: ");
	out_uint(passed);
	out(" passed, ");
	out_uint(failed);
	out(" failed\n");
	return failed != 0;
}

/* Entry: the global pointer, then exit(rv32_main()). */
__asm__(
	".section .text._start\n"
	".globl _start\n"
	"_start:\n"
	".option push\n"
	".option norelax\n"
	"	la gp, __global_pointer$\n"
	".option pop\n"
	"	call rv32_main\n"
	"	li a7, 93\n"
	"	ecall\n");
