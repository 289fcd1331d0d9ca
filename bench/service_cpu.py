"""CPU time per request of the signing service and of its load-test
client, for whichever falcon_accel is importable (so that two versions can
be compared alternately in the same minutes, including versions whose
load test does not report CPU itself):

    PYTHONPATH=<tree>/python FALCON_ACCEL_LIB=<build>/_falcon_accel.so \\
        python3 bench/service_cpu.py --mode verify-batch --requests 4000

Spawns the server (python -m falcon_accel.server, one broker thread per
CPU), runs 200 warm-up requests, then `--requests` requests from
`--clients` keep-alive clients (falcon_accel.loadtest.run_load, 64-item
batches). Prints the CPU ms per request of the server's event-loop thread
(its main thread), of its other threads (the broker's workers), and of
this process (the load-test client, including its set-up: one key and 8
signed batches, and for signing the verification of every returned
signature), from /proc and getrusage. CPU time, unlike throughput, does
not depend on how busy the machine is (only through cache and
frequency effects): compare versions in alternation.
"""
import argparse
import asyncio
import os
import resource

from falcon_accel import loadtest


def thread_ticks(pid: int):
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                s = f.read()
        except FileNotFoundError:
            continue
        fields = s[s.rindex(")") + 2:].split()
        out[tid] = int(fields[11]) + int(fields[12])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", default="verify-batch",
                    choices=loadtest.MODES)
    ap.add_argument("--requests", type=int, default=4000)
    ap.add_argument("--clients", type=int, default=4)
    args = ap.parse_args()
    run = getattr(loadtest, "run_on_fast_loop", asyncio.run)
    tick = os.sysconf("SC_CLK_TCK")
    srv = loadtest.SpawnedServer(0)
    try:
        pid = srv.proc.pid
        run(loadtest.run_load("127.0.0.1", srv.port, srv.token, args.mode,
                              args.clients, 60, 200, 64))
        a = thread_ticks(pid)
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        rep = run(loadtest.run_load("127.0.0.1", srv.port, srv.token,
                                    args.mode, args.clients, 600,
                                    args.requests, 64))
        b = thread_ticks(pid)
        r1 = resource.getrusage(resource.RUSAGE_SELF)
    finally:
        srv.stop()
    n = max(1, rep["requests"])
    main_t = b.get(str(pid), 0) - a.get(str(pid), 0)
    rest = sum(v - a.get(t, 0) for t, v in b.items() if t != str(pid))
    client = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    print(f"{args.mode}: {rep['requests']} requests x 64 items, "
          f"{args.clients} clients, errors {rep['errors']}; load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"  CPU ms/request: server event loop {1000 * main_t / tick / n:.3f}"
          f", server workers {1000 * rest / tick / n:.3f}, client "
          f"{1000 * client / n:.3f}")
    return 1 if rep["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
