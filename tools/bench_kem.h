/*
 * bench_kem.h -- ML-KEM timings for `falcon-accel bench` (bench_kem.c).
 */
#ifndef FA_BENCH_KEM_H
#define FA_BENCH_KEM_H

#include <stddef.h>

#include "falcon_accel.h"

/* Results per run: kem_keygen, kem_encaps, kem_decaps at 512, 768, 1024. */
#define BENCH_KEM_RESULTS 9

typedef struct {
	const char *op;        /* "kem_keygen", "kem_encaps", "kem_decaps" */
	unsigned level;        /* 512, 768, 1024 (reported as "degree") */
	double median_us;
	unsigned runs;
} bench_kem_result;

/* Times the three operations at the three levels on backend `be`:
   `runs` samples each (0: the default, up to 201 samples within about
   1 s per operation). Writes BENCH_KEM_RESULTS entries; exits (code 2)
   if an operation fails or the round trip gives different secrets. */
void bench_kem(const fa_backend *be, unsigned runs, bench_kem_result *out);

#endif
