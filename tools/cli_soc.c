/*
 * cli_soc.c -- the CLI's `soc` backend (cli_soc.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_soc.h"
#include "soc_proto.h"

static fa_soc *g_soc;

int cli_soc_selected(const char *name)
{
	if (name == NULL) {
		name = cli_global_backend;
	}
	if (name == NULL) {
		name = getenv("FALCON_ACCEL_BACKEND");
	}
	return name != NULL && strcmp(name, "soc") == 0;
}

int cli_soc_requested(int argc, char **argv)
{
	const char *name = NULL;
	int i;

	for (i = 1; i < argc; i ++) {
		if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
			name = argv[++ i];
		} else if (strncmp(argv[i], "--backend=", 10) == 0) {
			name = argv[i] + 10;
		}
	}
	return cli_soc_selected(name);
}

void cli_soc_describe(char *buf, size_t len)
{
	char what[900];
	int ok = fa_soc_probe(what, sizeof what);

	snprintf(buf, len, "%s (bench and kat only; mode %s; %s)",
		ok ? "available" : "unavailable",
		fa_soc_mode_name(cli_soc_mode()), what);
}

static void close_soc(void)
{
	fa_soc_close(g_soc);
	g_soc = NULL;
}

fa_soc *cli_soc_get(void)
{
	char err[256];

	if (g_soc == NULL) {
		g_soc = fa_soc_open(err, sizeof err);
		if (g_soc == NULL) {
			cli_fail(CLI_EXIT_ERROR, "%s", err);
		}
		atexit(close_soc);
	}
	return g_soc;
}

unsigned cli_soc_mode(void)
{
	const char *s = getenv("FALCON_ACCEL_SOC_MODE");
	int m = s != NULL && *s != 0 ? fa_soc_mode_parse(s)
		: (int)FA_SOC_MODE_DMA;   /* the fastest configuration */

	if (m < 0) {
		cli_fail(CLI_EXIT_ERROR, "FALCON_ACCEL_SOC_MODE must be fw, accel "
			"or dma (got '%s')", s);
	}
	return (unsigned)m;
}

/* A call that must succeed with status OK; exits otherwise. */
static void call_ok(const char *what, unsigned op, unsigned logn,
	const fa_soc_field *in, unsigned n, fa_soc_reply *r, unsigned nout)
{
	char err[256];

	if (fa_soc_call(cli_soc_get(), op, logn, cli_soc_mode(), in, n, r,
		err, sizeof err) != 0)
	{
		cli_fail(CLI_EXIT_ERROR, "%s: %s", what, err);
	}
	if (r->status != FA_SOC_ST_OK) {
		cli_fail(CLI_EXIT_ERROR, "%s: firmware answered %s (library "
			"code %d)", what, fa_soc_status_name(r->status),
			(int)r->lib_rc);
	}
	if (r->nfields != nout) {
		cli_fail(CLI_EXIT_ERROR, "%s: reply has %u fields, expected %u",
			what, r->nfields, nout);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

size_t cli_soc_kat_record(unsigned logn, unsigned count,
	const uint8_t keygen_seed[48], const uint8_t nonce[40],
	const uint8_t sign_seed[48], const uint8_t *msg, size_t mlen,
	uint8_t *sk, uint8_t *pk, uint8_t *sig, size_t sig_max)
{
	fa_soc_reply r;
	fa_soc_field in[4];
	size_t sk_len = FA_PRIVKEY_SIZE(logn), pk_len = FA_PUBKEY_SIZE(logn);
	size_t sig_len;
	char what[64];

	snprintf(what, sizeof what, "kat: record %u: soc keygen", count);
	in[0].p = keygen_seed;
	in[0].len = 48;
	call_ok(what, FA_SOC_OP_KEYGEN, logn, in, 1, &r, 2);
	if (r.fields[0].len != sk_len || r.fields[1].len != pk_len) {
		cli_fail(CLI_EXIT_ERROR, "%s: key sizes %u/%u", what,
			r.fields[0].len, r.fields[1].len);
	}
	memcpy(sk, r.fields[0].p, sk_len);
	memcpy(pk, r.fields[1].p, pk_len);

	in[0].p = sk;
	in[0].len = (uint32_t)sk_len;
	in[1].p = nonce;
	in[1].len = 40;
	in[2].p = sign_seed;
	in[2].len = 48;
	in[3].p = msg;
	in[3].len = (uint32_t)mlen;
	snprintf(what, sizeof what, "kat: record %u: soc sign_dyn", count);
	call_ok(what, FA_SOC_OP_SIGN_DYN, logn, in, 4, &r, 1);
	sig_len = r.fields[0].len;
	if (sig_len > sig_max) {
		cli_fail(CLI_EXIT_ERROR, "%s: signature too long", what);
	}
	memcpy(sig, r.fields[0].p, sig_len);

	snprintf(what, sizeof what, "kat: record %u: soc sign_tree", count);
	call_ok(what, FA_SOC_OP_SIGN_TREE, logn, in, 4, &r, 1);
	if (r.fields[0].len != sig_len
		|| memcmp(r.fields[0].p, sig, sig_len) != 0)
	{
		cli_fail(CLI_EXIT_ERROR, "kat: record %u: signing with the "
			"expanded key differs from dynamic signing (soc)", count);
	}

	in[0].p = pk;
	in[0].len = (uint32_t)pk_len;
	in[1].p = sig;
	in[1].len = (uint32_t)sig_len;
	in[2].p = msg;
	in[2].len = (uint32_t)mlen;
	snprintf(what, sizeof what, "kat: record %u: soc verify", count);
	call_ok(what, FA_SOC_OP_VERIFY, logn, in, 3, &r, 0);
	if (r.lib_rc != FA_OK) {
		cli_fail(CLI_EXIT_ERROR, "kat: record %u: the signature does not "
			"verify on the firmware: %s", count, fa_strerror(r.lib_rc));
	}
	return sig_len;
}

/* ------------------------------------------------------------------ */
/* bench */

typedef struct {
	const char *op;
	unsigned degree, runs;
	uint64_t cycles, aux;
	uint32_t acc_compute, acc_bus, dma, kcalls;
	double wall_s;
} soc_result;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Runs op `runs` times; the result of the median-cycles run. */
static soc_result bench_op(const char *name, unsigned op, unsigned logn,
	const fa_soc_field *in, unsigned n, unsigned nout, unsigned runs,
	fa_soc_reply *last)
{
	soc_result res, *all = cli_alloc(runs * sizeof *all);
	uint64_t *cyc = cli_alloc(runs * sizeof *cyc);
	unsigned i;

	for (i = 0; i < runs; i ++) {
		fa_soc_reply r;
		double t0 = now_s();

		call_ok(name, op, logn, in, n, &r, nout);
		all[i].op = name;
		all[i].degree = 1u << logn;
		all[i].runs = runs;
		all[i].cycles = r.cycles;
		all[i].aux = r.aux;
		all[i].acc_compute = r.acc_compute;
		all[i].acc_bus = r.acc_bus;
		all[i].dma = r.dma;
		all[i].kcalls = r.kcalls;
		all[i].wall_s = now_s() - t0;
		cyc[i] = r.cycles;
		*last = r;
	}
	qsort(cyc, runs, sizeof *cyc, cmp_u64);
	res = all[0];
	for (i = 0; i < runs; i ++) {
		if (all[i].cycles == cyc[runs / 2]) {
			res = all[i];
			break;
		}
	}
	free(all);
	free(cyc);
	return res;
}

int cli_soc_bench(int json, unsigned runs, unsigned logn_lo,
	unsigned logn_hi)
{
	soc_result res[5 * 2];
	size_t count = 0, i;
	unsigned logn, mode = cli_soc_mode();
	static const uint8_t msg[32] = "falcon-accel soc bench message.";
	uint8_t seed[48], nonce[40];
	fa_soc_reply r;
	fa_soc_field in[4];
	uint8_t *sk = NULL, *pk = NULL, *sig = NULL;
	size_t sig_len;

	if (runs == 0) {
		runs = 1;
	}
	for (i = 0; i < sizeof seed; i ++) {
		seed[i] = (uint8_t)(0xA0 + i);
	}
	for (i = 0; i < sizeof nonce; i ++) {
		nonce[i] = (uint8_t)(0x40 + i);
	}
	for (logn = logn_lo; logn <= logn_hi; logn ++) {
		size_t sk_len = FA_PRIVKEY_SIZE(logn), pk_len = FA_PUBKEY_SIZE(logn);

		sk = realloc(sk, sk_len);
		pk = realloc(pk, pk_len);
		sig = realloc(sig, FA_SIG_MAXSIZE(logn));
		if (sk == NULL || pk == NULL || sig == NULL) {
			cli_fail(CLI_EXIT_ERROR, "bench: out of memory");
		}
		in[0].p = seed;
		in[0].len = sizeof seed;
		res[count ++] = bench_op("keygen", FA_SOC_OP_KEYGEN, logn, in, 1,
			2, runs, &r);
		memcpy(sk, r.fields[0].p, sk_len);
		memcpy(pk, r.fields[1].p, pk_len);
		in[0].p = sk;
		in[0].len = (uint32_t)sk_len;
		res[count ++] = bench_op("pubkey", FA_SOC_OP_PUBKEY, logn, in, 1,
			1, runs, &r);
		in[1].p = nonce;
		in[1].len = sizeof nonce;
		in[2].p = seed;
		in[2].len = sizeof seed;
		in[3].p = msg;
		in[3].len = sizeof msg;
		res[count ++] = bench_op("sign_dyn", FA_SOC_OP_SIGN_DYN, logn, in,
			4, 1, runs, &r);
		sig_len = r.fields[0].len;
		memcpy(sig, r.fields[0].p, sig_len);
		res[count ++] = bench_op("sign_tree", FA_SOC_OP_SIGN_TREE, logn,
			in, 4, 1, runs, &r);
		in[0].p = pk;
		in[0].len = (uint32_t)pk_len;
		in[1].p = sig;
		in[1].len = (uint32_t)sig_len;
		in[2].p = msg;
		in[2].len = sizeof msg;
		res[count ++] = bench_op("verify", FA_SOC_OP_VERIFY, logn, in, 3,
			0, runs, &r);
		if (r.lib_rc != FA_OK) {
			cli_fail(CLI_EXIT_ERROR, "bench: the firmware's signature "
				"does not verify");
		}
	}
	if (json) {
		/* cycles only: a time needs the clock that a configuration
		   reaches after place and route (results/boards.json) */
		printf("{\"implementation\":\"falcon-accel\",\"backend\":\"soc\","
			"\"soc_mode\":\"%s\",\"threads\":1,\"machine\":\"simulated "
			"falcon-accel SoC (VexRiscv RV32IMAC, Verilator)\",\"clock\":"
			"\"cycles only; ms at a configuration's routed clock: "
			"results/boards.json\",\"results\":[", fa_soc_mode_name(mode));
		for (i = 0; i < count; i ++) {
			printf("%s{\"op\":\"%s\",\"degree\":%u,"
				"\"runs\":%u,\"cycles\":%llu", i ? "," : "", res[i].op,
				res[i].degree, res[i].runs,
				(unsigned long long)res[i].cycles);
			if (strcmp(res[i].op, "sign_tree") == 0) {
				printf(",\"expand_cycles\":%llu",
					(unsigned long long)res[i].aux);
			}
			/* pubkey: h = g/f alone, without decoding and
			   checking the private key (firmware's aux) */
			if (strcmp(res[i].op, "pubkey") == 0) {
				printf(",\"h_cycles\":%llu",
					(unsigned long long)res[i].aux);
			}
			printf(",\"accel_compute_cycles\":%u,\"accel_bus_cycles\":%u,"
				"\"dma_cycles\":%u,\"accel_calls\":%u,\"sim_wall_s\":%.1f}",
				res[i].acc_compute, res[i].acc_bus, res[i].dma,
				res[i].kcalls, res[i].wall_s);
		}
		printf("]}\n");
	} else {
		printf("falcon-accel bench: backend soc (mode %s), mcycle counts "
			"(times at a configuration's routed clock: "
			"results/boards.json)\n\n", fa_soc_mode_name(mode));
		printf("%-10s %6s %14s %12s %10s %10s\n", "op", "degree",
			"cycles", "acc_compute", "acc_bus", "dma");
		for (i = 0; i < count; i ++) {
			printf("%-10s %6u %14llu %12u %10u %10u\n", res[i].op,
				res[i].degree, (unsigned long long)res[i].cycles,
				res[i].acc_compute, res[i].acc_bus, res[i].dma);
		}
	}
	free(sk);
	free(pk);
	free(sig);
	return CLI_EXIT_OK;
}

int cli_soc_cmd_bench(int argc, char **argv)
{
	cli_args a;
	const char *opt;
	int json = 0;
	unsigned runs = 1, logn_lo = 9, logn_hi = 10;

	cli_args_init(&a, argc, argv);
	while ((opt = cli_next_opt(&a)) != NULL) {
		if (strcmp(opt, "--json") == 0) {
			cli_opt_flag(&a);
			json = 1;
		} else if (strcmp(opt, "--backend") == 0) {
			(void)cli_opt_value(&a);
		} else if (strcmp(opt, "--threads") == 0) {
			if (cli_parse_uint("--threads", cli_opt_value(&a), 1, 1) != 1) {
				cli_fail(CLI_EXIT_ERROR, "bench: soc: one thread only");
			}
		} else if (strcmp(opt, "--runs") == 0) {
			runs = (unsigned)cli_parse_uint("--runs", cli_opt_value(&a),
				1, 1000);
		} else if (strcmp(opt, "--degree") == 0) {
			logn_lo = logn_hi = cli_parse_degree(cli_opt_value(&a));
		} else {
			cli_fail(CLI_EXIT_ERROR, "bench: unknown option %s", opt);
		}
	}
	return cli_soc_bench(json, runs, logn_lo, logn_hi);
}
