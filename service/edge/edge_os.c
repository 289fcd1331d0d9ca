/*
 * edge_os.c -- what the edge library takes from the operating system
 * besides threads: a wipe the compiler keeps, freeing secrets, the
 * monotonic clock, the CPU count, condition variables on that clock.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "edge_internal.h"


void
fa_edge_wipe(void *p, size_t len)
{
	/* A volatile function pointer keeps the compiler from proving the
	   memset dead before free(). */
	static void *(*const volatile wipe)(void *, int, size_t) = memset;

	if (p != NULL && len > 0) {
		wipe(p, 0, len);
	}
}

void
fa_free_secret(void *p, size_t len)
{
	if (p != NULL) {
		fa_edge_wipe(p, len);
		free(p);
	}
}

int64_t
fa_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

unsigned
fa_cpu_count(void)
{
	cpu_set_t set;
	long n;

	/* CPUs in this process's affinity mask (containers, taskset), else
	   the online CPUs. */
	if (sched_getaffinity(0, sizeof set, &set) == 0) {
		n = CPU_COUNT(&set);
		if (n > 0) {
			return (unsigned)n;
		}
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1u;
}

int
fa_edge_cond_init(pthread_cond_t *c)
{
	pthread_condattr_t attr;
	int r;

	if (pthread_condattr_init(&attr) != 0) {
		return -1;
	}
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	r = pthread_cond_init(c, &attr);
	pthread_condattr_destroy(&attr);
	return r == 0 ? 0 : -1;
}

void
fa_edge_cond_wait_until(pthread_cond_t *c, pthread_mutex_t *m,
	int64_t until_us)
{
	struct timespec ts;

	if (until_us < 0) {
		until_us = 0;
	}
	ts.tv_sec = (time_t)(until_us / 1000000);
	ts.tv_nsec = (long)(until_us % 1000000) * 1000;
	pthread_cond_timedwait(c, m, &ts);
}
