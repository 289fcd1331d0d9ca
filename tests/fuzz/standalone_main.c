/*
 * standalone_main.c -- driver for the fuzz targets without libFuzzer
 * (any compiler): replays every file of the corpus directories (or files)
 * given on the command line, then runs mutated variants of them and
 * random inputs.
 *
 * Usage: fuzz_X_replay [-random=N] [-seed=S] PATH...
 * Every input is passed in a heap buffer of its exact size, so that the
 * sanitizer build catches reads past the end. A failed property aborts.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT 8192
#define MAX_FILES 4096

static uint8_t *corpus[MAX_FILES];
static size_t corpus_len[MAX_FILES];
static size_t ncorpus;

static uint64_t
rnd(uint64_t *s)
{
	/* xorshift64* */
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static void
run_one(const uint8_t *data, size_t len)
{
	uint8_t *buf = malloc(len ? len : 1);

	if (buf == NULL) {
		abort();
	}
	memcpy(buf, data, len);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
}

static void
add_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf;
	size_t len;

	if (fp == NULL || ncorpus >= MAX_FILES) {
		if (fp != NULL) {
			fclose(fp);
		}
		return;
	}
	buf = malloc(MAX_INPUT);
	len = fread(buf, 1, MAX_INPUT, fp);
	fclose(fp);
	corpus[ncorpus] = buf;
	corpus_len[ncorpus] = len;
	ncorpus ++;
}

static void
add_path(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		add_file(path);
		return;
	}
	d = opendir(path);
	if (d == NULL) {
		return;
	}
	while ((e = readdir(d)) != NULL) {
		char full[4096];

		if (e->d_name[0] == '.') {
			continue;
		}
		snprintf(full, sizeof full, "%s/%s", path, e->d_name);
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
			add_file(full);
		}
	}
	closedir(d);
}

int
main(int argc, char **argv)
{
	unsigned long nrandom = 5000, i;
	uint64_t seed = 1;
	static uint8_t buf[MAX_INPUT + 16];
	int a;

	for (a = 1; a < argc; a ++) {
		if (strncmp(argv[a], "-random=", 8) == 0) {
			nrandom = strtoul(argv[a] + 8, NULL, 10);
		} else if (strncmp(argv[a], "-seed=", 6) == 0) {
			seed = strtoull(argv[a] + 6, NULL, 10) | 1;
		} else {
			add_path(argv[a]);
		}
	}
	for (i = 0; i < ncorpus; i ++) {
		run_one(corpus[i], corpus_len[i]);
	}
	for (i = 0; i < nrandom; i ++) {
		size_t len;

		if (ncorpus > 0 && (i & 3) != 0) {
			/* Mutate a corpus entry: bit flips, byte writes,
			   truncation or extension. */
			size_t k = (size_t)(rnd(&seed) % ncorpus), m, nm;

			len = corpus_len[k];
			memcpy(buf, corpus[k], len);
			nm = 1 + (size_t)(rnd(&seed) % 4);
			for (m = 0; m < nm; m ++) {
				switch (rnd(&seed) % 4) {
				case 0:
					if (len > 0) {
						size_t b = (size_t)(rnd(&seed)
							% (8 * len));

						buf[b >> 3] ^= (uint8_t)(1u << (b & 7));
					}
					break;
				case 1:
					if (len > 0) {
						buf[rnd(&seed) % len] =
							(uint8_t)rnd(&seed);
					}
					break;
				case 2:
					if (len > 0) {
						len -= (size_t)(rnd(&seed)
							% (len < 4 ? len : 4) + 1);
						if (len > MAX_INPUT) {
							len = 0;
						}
					}
					break;
				default:
					if (len < MAX_INPUT) {
						buf[len ++] = (uint8_t)rnd(&seed);
					}
					break;
				}
			}
		} else {
			/* Random bytes; short and long lengths. */
			size_t m;

			len = (size_t)(rnd(&seed) % ((i & 4) ? 64 : 3200));
			for (m = 0; m < len; m ++) {
				buf[m] = (uint8_t)rnd(&seed);
			}
		}
		run_one(buf, len);
	}
	printf("%s: %zu corpus inputs, %lu generated inputs, no failure\n",
		argv[0], ncorpus, nrandom);
	for (i = 0; i < ncorpus; i ++) {
		free(corpus[i]);
	}
	return 0;
}
