/*
 * Stand-alone driver for the fido2 fuzz targets when libFuzzer is not
 * available (gcc): runs every corpus file, then N generated inputs, half
 * purely random and half mutations of corpus entries (bit flips, byte
 * overwrites, insertions, deletions, duplicated ranges, splices with
 * another entry, truncations). A watchdog turns a hang (> 10 s on one
 * input) into a failure naming the input.
 *   fuzz_fido2_X [-random=N] [-seed=S] FILE|DIR...
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_IN 8192
#define MAX_CORPUS 4096

static uint8_t *corpus[MAX_CORPUS];
static size_t corpus_len[MAX_CORPUS];
static int ncorpus;
static uint64_t rs = 0x9e3779b97f4a7c15ull;
static volatile const char *current = "";

static uint64_t
rnd(void)
{
	/* xorshift64* */
	rs ^= rs >> 12; rs ^= rs << 25; rs ^= rs >> 27;
	return rs * 0x2545f4914f6cdd1dull;
}

static void
on_alarm(int sig)
{
	(void)sig;
	fprintf(stderr, "HANG: input %s took more than 10 s\n", (const char *)current);
	_exit(1);
}

static void
add_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	size_t n;
	if (f == NULL || ncorpus >= MAX_CORPUS) {
		if (f) fclose(f);
		return;
	}
	b = malloc(MAX_IN);
	n = fread(b, 1, MAX_IN, f);
	fclose(f);
	corpus[ncorpus] = b;
	corpus_len[ncorpus++] = n;
}

static void
add_path(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	char p[4096];
	if (stat(path, &st) != 0) {
		fprintf(stderr, "fuzz replay: %s: not found\n", path);
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		add_file(path);
		return;
	}
	d = opendir(path);
	while (d != NULL && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.') continue;
		snprintf(p, sizeof p, "%s/%s", path, e->d_name);
		add_file(p);
	}
	if (d) closedir(d);
}

static size_t
mutate(uint8_t *b, size_t n)
{
	int k, rounds = 1 + (int)(rnd() % 8);
	for (k = 0; k < rounds; k++) {
		size_t pos = n ? (size_t)(rnd() % n) : 0, len;
		switch (rnd() % 7) {
		case 0: if (n) b[pos] ^= (uint8_t)(1u << (rnd() % 8)); break;
		case 1: if (n) b[pos] = (uint8_t)rnd(); break;
		case 2:
			if (n < MAX_IN) {
				memmove(b + pos + 1, b + pos, n - pos);
				b[pos] = (uint8_t)rnd();
				n++;
			}
			break;
		case 3:
			len = n - pos ? (size_t)(rnd() % (n - pos)) + 1 : 0;
			if (len > 16) len = 1 + len % 16;
			memmove(b + pos, b + pos + len, n - pos - len);
			n -= len;
			break;
		case 4:
			len = n - pos ? (size_t)(rnd() % (n - pos)) + 1 : 0;
			if (len > 64) len = 64;
			if (n + len <= MAX_IN) {
				memmove(b + pos + len, b + pos, n - pos);
				n += len;
			}
			break;
		case 5:
			if (ncorpus) {
				int o = (int)(rnd() % (uint64_t)ncorpus);
				size_t from = corpus_len[o] ? (size_t)(rnd() % corpus_len[o]) : 0;
				len = corpus_len[o] - from;
				if (pos + len > MAX_IN) len = MAX_IN - pos;
				memcpy(b + pos, corpus[o] + from, len);
				if (pos + len > n) n = pos + len;
			}
			break;
		default:
			n = pos;
			break;
		}
	}
	return n;
}

int
main(int argc, char **argv)
{
	long nrand = 0;
	int i;
	static uint8_t buf[MAX_IN];
	char name[64];
	long done = 0;

	for (i = 1; i < argc; i++) {
		if (strncmp(argv[i], "-random=", 8) == 0) {
			nrand = atol(argv[i] + 8);
		} else if (strncmp(argv[i], "-seed=", 6) == 0) {
			rs ^= (uint64_t)atoll(argv[i] + 6) * 0x100000001b3ull;
		} else {
			add_path(argv[i]);
		}
	}
	signal(SIGALRM, on_alarm);
	for (i = 0; i < ncorpus; i++) {
		snprintf(name, sizeof name, "corpus #%d", i);
		current = name;
		alarm(10);
		memcpy(buf, corpus[i], corpus_len[i]);
		LLVMFuzzerTestOneInput(buf, corpus_len[i]);
		done++;
	}
	for (i = 0; i < nrand; i++) {
		size_t n;
		snprintf(name, sizeof name, "generated #%d", i);
		current = name;
		alarm(10);
		if ((i & 1) == 0 || ncorpus == 0) {
			size_t k;
			n = (size_t)(rnd() % 600);
			for (k = 0; k < n; k++) buf[k] = (uint8_t)rnd();
		} else {
			int o = (int)(rnd() % (uint64_t)ncorpus);
			memcpy(buf, corpus[o], corpus_len[o]);
			n = mutate(buf, corpus_len[o]);
		}
		LLVMFuzzerTestOneInput(buf, n);
		done++;
	}
	alarm(0);
	printf("%ld inputs (%d corpus, %ld random/mutated), no crash or hang\n",
		done, ncorpus, nrand);
	return 0;
}
