"""Load test of the signing service: ``python -m falcon_accel.loadtest``.

N concurrent clients (keep-alive HTTP/1.1 connections on one asyncio
loop) send requests for a bounded time and at most a bounded number of
requests, to a server on the loopback interface only (an address that is
not loopback is refused). Every response is checked:

  verify-batch / verify   the results equal the expected ones (each batch
                          has one deliberately corrupted item)
  sign-batch / sign       every returned signature verifies (checked after
                          the timed phase with the local C batch verify)

It reports throughput and latency percentiles, or the errors, and exits 1
on any error. ``--spawn`` starts its own server (a subprocess with a
temporary key directory and token) on an ephemeral port; ``--baseline``
also measures the raw C batch throughput (falcon_accel.sign_batch /
verify_batch on a pool of the same number of threads) on this machine
and prints the ratio service/raw. With ``--spawn`` it also reports the
CPU time per request over the timed phases (from /proc, so independent of
how busy the machine is, unlike the ratio): the server's event-loop
thread, its broker workers, and the load-test client itself, which runs
on the same CPUs (on uvloop when installed, answers compared byte for
byte with the expected JSON before any parsing).
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import ipaddress
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import urlparse

from . import core

MODES = ("verify-batch", "sign-batch", "verify", "sign")


class LoadTestError(Exception):
    pass


def check_loopback(host: str) -> None:
    """Refuse any target that does not resolve only to loopback."""
    try:
        infos = socket.getaddrinfo(host, None)
    except socket.gaierror as e:
        raise LoadTestError(f"cannot resolve {host!r}: {e}")
    for info in infos:
        addr = ipaddress.ip_address(info[4][0].split("%")[0])
        if not addr.is_loopback:
            raise LoadTestError(f"{host} resolves to {addr}, which is not a "
                                "loopback address; the load test only "
                                "targets this machine")


def percentiles(samples: List[float]) -> Dict[str, float]:
    if not samples:
        return {"p50": 0.0, "p90": 0.0, "p99": 0.0, "max": 0.0}
    s = sorted(samples)

    def rank(p: float) -> float:
        return s[min(len(s) - 1, max(0, int(-(-len(s) * p // 100)) - 1))]
    return {"p50": rank(50), "p90": rank(90), "p99": rank(99), "max": s[-1]}


class _ResponseReader(asyncio.Protocol):
    """Reads HTTP/1.1 responses with a Content-Length (the service's)
    off one connection: the load test's client is on the same CPUs as the
    service, so it does the least work per response (no stream layers)."""

    def __init__(self) -> None:
        self.transport: Optional[asyncio.Transport] = None
        self.buf = bytearray()
        self.waiter: Optional[asyncio.Future] = None
        self.head: Optional[Tuple[int, int, bool]] = None  # status, end, close
        self.need = 0
        self.lost: Optional[BaseException] = None

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buf += data
        self._deliver()

    def connection_lost(self, exc: Optional[BaseException]) -> None:
        self.lost = exc or ConnectionResetError("connection closed by the "
                                                "server")
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(self.lost)

    def _deliver(self) -> None:
        if self.waiter is None or self.waiter.done():
            return
        if self.head is None:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            lines = bytes(self.buf[:end]).decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ")[1])
            length, close = 0, False
            for line in lines[1:]:
                k, _, v = line.partition(":")
                k = k.strip().lower()
                if k == "content-length":
                    length = int(v)
                elif k == "connection" and v.strip().lower() == "close":
                    close = True
            self.head = (status, end + 4, close)
            self.need = end + 4 + length
        if len(self.buf) < self.need:
            return
        status, start, close = self.head
        body = bytes(self.buf[start:self.need])
        del self.buf[:self.need]
        self.head = None
        self.waiter.set_result((status, body, close))

    async def response(self) -> Tuple[int, bytes, bool]:
        if self.lost is not None:
            raise self.lost
        self.waiter = asyncio.get_running_loop().create_future()
        self._deliver()
        try:
            return await self.waiter
        finally:
            self.waiter = None


class Connection:
    """A minimal keep-alive HTTP/1.1 client connection."""

    def __init__(self, host: str, port: int, token: Optional[str]):
        self.host, self.port, self.token = host, port, token
        self.proto: Optional[_ResponseReader] = None

    async def open(self) -> None:
        _, self.proto = await asyncio.get_running_loop().create_connection(
            _ResponseReader, self.host, self.port)

    async def close(self) -> None:
        if self.proto is not None and self.proto.transport is not None:
            self.proto.transport.close()
        self.proto = None

    def request_bytes(self, method: str, path: str, body: bytes) -> bytes:
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}",
                f"Content-Length: {len(body)}",
                "Content-Type: application/json"]
        if self.token:
            head.append(f"Authorization: Bearer {self.token}")
        return ("\r\n".join(head) + "\r\n\r\n").encode() + body

    async def send(self, raw: bytes) -> Tuple[int, bytes]:
        if self.proto is None:
            await self.open()
        assert self.proto is not None and self.proto.transport is not None
        self.proto.transport.write(raw)
        status, body, close = await self.proto.response()
        if close:
            await self.close()
        return status, body

    async def call(self, method: str, path: str, obj: Any = None
                   ) -> Tuple[int, Any]:
        body = b"" if obj is None else json.dumps(obj).encode()
        status, out = await self.send(self.request_bytes(method, path, body))
        return status, json.loads(out) if out else None


def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


class Workload:
    """Prepared requests and their expected answers."""

    def __init__(self, mode: str, batch: int, fmt: str, inline_pk: bool):
        self.mode, self.batch, self.fmt = mode, batch, fmt
        self.inline_pk = inline_pk
        self.key_id = ""
        self.public_key = b""
        self.requests: List[Tuple[bytes, Any]] = []  # (raw body, expected)
        # Verify modes: the expected answer as compact JSON (a response
        # equal to it byte for byte needs no parsing; any other is parsed
        # and compared). Sign modes: None (signatures are checked).
        self.answers: List[Optional[bytes]] = []

    async def setup(self, conn: Connection, variants: int = 8) -> None:
        st, out = await conn.call("POST", "/v1/keys", {"logn": 9})
        if st != 201:
            raise LoadTestError(f"key creation failed: {st} {out}")
        self.key_id = out["key_id"]
        self.public_key = base64.b64decode(out["public_key"])
        n = self.batch if self.mode.endswith("batch") else 1
        for v in range(variants):
            msgs = [f"load test message {v}:{i}:".encode() +
                    secrets.token_bytes(16) for i in range(n)]
            if self.mode.startswith("sign"):
                self.requests.append((self._sign_body(msgs), msgs))
                self.answers.append(None)
                continue
            st, out = await conn.call("POST", "/v1/sign/batch", {
                "format": self.fmt,
                "items": [{"key_id": self.key_id, "message": _b64(m)}
                          for m in msgs]})
            if st != 200:
                raise LoadTestError(f"setup signing failed: {st} {out}")
            sigs = [base64.b64decode(s) for s in out["signatures"]]
            expected = [True] * n
            if n > 1:
                bad = v % n          # one corrupted item per batch
                msgs[bad] = msgs[bad][:-1] + bytes([msgs[bad][-1] ^ 1])
                expected[bad] = False
            self.requests.append((self._verify_body(msgs, sigs), expected))
            ans = {"results": expected, "valid": sum(expected)} \
                if self.mode == "verify-batch" else {"valid": expected[0]}
            self.answers.append(json.dumps(ans, separators=(",", ":"))
                                .encode())

    def _sign_body(self, msgs: List[bytes]) -> bytes:
        if self.mode == "sign":
            return json.dumps({"message": _b64(msgs[0]),
                               "format": self.fmt}).encode()
        return json.dumps({"format": self.fmt, "items": [
            {"key_id": self.key_id, "message": _b64(m)}
            for m in msgs]}).encode()

    def _verify_item(self, m: bytes, s: bytes) -> Dict[str, str]:
        it = {"message": _b64(m), "signature": _b64(s)}
        if self.inline_pk:
            it["public_key"] = _b64(self.public_key)
        else:
            it["key_id"] = self.key_id
        return it

    def _verify_body(self, msgs: List[bytes], sigs: List[bytes]) -> bytes:
        if self.mode == "verify":
            return json.dumps(self._verify_item(msgs[0], sigs[0])).encode()
        return json.dumps({"items": [self._verify_item(m, s)
                                     for m, s in zip(msgs, sigs)]}).encode()

    @property
    def path(self) -> str:
        return {"verify-batch": "/v1/verify/batch",
                "sign-batch": "/v1/sign/batch", "verify": "/v1/verify",
                "sign": f"/v1/keys/{self.key_id}/sign"}[self.mode]

    @property
    def items_per_request(self) -> int:
        return self.batch if self.mode.endswith("batch") else 1


async def run_load(host: str, port: int, token: Optional[str], mode: str,
                   clients: int, duration: float, max_requests: int,
                   batch: int, fmt: str = "compressed",
                   inline_pk: bool = False,
                   server_pid: Optional[int] = None) -> Dict[str, Any]:
    """Run the load; returns the report (errors listed in it). With
    server_pid (a server on this machine), the report has the CPU time per
    request of the server's threads over the timed phase."""
    setup_conn = Connection(host, port, token)
    wl = Workload(mode, batch, fmt, inline_pk)
    try:
        await wl.setup(setup_conn)
    finally:
        await setup_conn.close()

    latencies: List[float] = []
    errors: List[str] = []
    signed: List[Tuple[List[bytes], List[str]]] = []
    sign_answers: List[Tuple[List[bytes], bytes]] = []  # read after timing
    sent = 0
    t_end = time.monotonic() + duration

    async def client(cid: int) -> None:
        nonlocal sent
        conn = Connection(host, port, token)
        raws = [conn.request_bytes("POST", wl.path, body)
                for body, _ in wl.requests]
        k = cid
        try:
            while time.monotonic() < t_end and sent < max_requests:
                sent += 1
                idx = k % len(raws)
                k += 1
                t0 = time.perf_counter()
                try:
                    status, body = await conn.send(raws[idx])
                except (OSError, asyncio.IncompleteReadError) as e:
                    errors.append(f"client {cid}: connection error {e!r}")
                    await conn.close()
                    continue
                latencies.append(time.perf_counter() - t0)
                if status != 200:
                    errors.append(f"status {status}: {body[:200]!r}")
                    continue
                if body == wl.answers[idx]:
                    continue    # the expected answer, byte for byte
                expected = wl.requests[idx][1]
                if mode.startswith("sign"):
                    # Read and checked after the timed phase (below).
                    sign_answers.append((expected, body))
                    continue
                out = json.loads(body)
                if mode.startswith("verify"):
                    got = out["results"] if mode == "verify-batch" \
                        else [out["valid"]]
                    if got != expected:
                        errors.append(f"wrong verify results {got} != "
                                      f"{expected}")
        finally:
            await conn.close()

    srv0 = thread_cpu_s(server_pid) if server_pid else {}
    t0, cpu0 = time.monotonic(), time.process_time()
    await asyncio.gather(*(client(i) for i in range(clients)))
    elapsed = time.monotonic() - t0
    client_cpu = time.process_time() - cpu0
    srv1 = thread_cpu_s(server_pid) if server_pid else {}

    # Every signature must verify (outside the timed phase).
    for expected, body in sign_answers:
        try:
            out = json.loads(body)
            sigs = out["signatures"] if mode == "sign-batch" \
                else [out["signature"]]
        except (ValueError, KeyError, TypeError) as e:
            errors.append(f"malformed answer ({e!r}): {body[:200]!r}")
            continue
        if len(sigs) != len(expected):
            errors.append("wrong number of signatures")
        else:
            signed.append((expected, sigs))
    checked = 0
    if signed:
        pp = core.prepare(wl.public_key)
        triples, undecodable = [], 0
        for msgs, sigs in signed:
            for m, sg in zip(msgs, sigs):
                try:
                    triples.append((pp, m, base64.b64decode(sg,
                                                            validate=True)))
                except (ValueError, TypeError):
                    undecodable += 1
        if undecodable:
            errors.append(f"{undecodable} returned signatures are not "
                          "base64")
        # Status codes: a malformed signature counts as one that does
        # not verify (no exception).
        codes = core.verify_batch_status(triples) if triples else []
        checked = len(codes) + undecodable
        bad = sum(1 for c in codes if c != 0)
        if bad:
            errors.append(f"{bad} of {checked} returned signatures do not "
                          "verify")
    n_ok = len(latencies)
    lat = percentiles(latencies)
    extra: Dict[str, Any] = {}
    if srv0 and srv1:
        extra["_cpu"] = cpu_per_request(server_pid, srv0, srv1, n_ok)
    return {**extra,
        "_latencies": latencies, "_errors": errors,
        "mode": mode, "clients": clients, "duration_s": round(elapsed, 3),
        "requests": n_ok, "items_per_request": wl.items_per_request,
        "requests_per_s": round(n_ok / elapsed, 1) if elapsed else 0.0,
        "items_per_s": round(n_ok * wl.items_per_request / elapsed, 1)
        if elapsed else 0.0,
        "latency_ms": {k: round(v * 1000, 3) for k, v in lat.items()},
        "signatures_checked": checked,
        "client_cpu_s": round(client_cpu, 4),
        "errors": len(errors), "error_samples": errors[:5],
        "format": fmt, "key_addressing": "inline public key" if inline_pk
        else "key_id",
    }


def run_on_fast_loop(coro):
    """asyncio.run, on uvloop when it is installed (as the service runs):
    the client shares the CPUs with the service it measures."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    if sys.version_info >= (3, 11):
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            return runner.run(coro)
    loop = uvloop.new_event_loop()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()


def raw_baseline(mode: str, threads: int, seconds: float, batch: int = 256,
                 fmt: str = "compressed") -> Dict[str, Any]:
    """Raw C batch throughput (items/s) of the mode's operation on a pool
    of `threads` threads: the item arrays are built once, only the C
    calls fa_sign_batch / fa_verify_batch are timed (the same work as
    the broker's: expanded private key, prepared public key)."""
    from ._ffi import ffi, lib
    kp = core.keygen(9)
    ek = core.expand(kp.secret_key)
    pp = core.prepare(kp.public_key)
    msgs = [secrets.token_bytes(40) for _ in range(batch)]
    f = int(core.sig_format(fmt))
    with core.Pool(threads) as pool:
        sigs = core.sign_batch([(ek, m) for m in msgs], fmt, pool)
        keep = []
        if mode.startswith("sign"):
            arr = ffi.new("fa_sign_item[]", batch)
            smax = core.signature_max_size(9)
            for i, m in enumerate(msgs):
                mb = ffi.from_buffer(m)
                sb = ffi.new("uint8_t[]", smax)
                keep += [mb, sb]
                arr[i].expanded_key = ek._ptr
                arr[i].msg, arr[i].msg_len = mb, len(m)
                arr[i].sig, arr[i].sig_len = sb, smax
            template = ffi.new("fa_sign_item[]", batch)
            ffi.memmove(template, arr, ffi.sizeof(arr))

            def run() -> None:
                ffi.memmove(arr, template, ffi.sizeof(arr))  # sig_len
                if lib.fa_sign_batch(pool._ptr, ffi.NULL, f, arr, batch):
                    raise LoadTestError("baseline signing failed")
        else:
            arr = ffi.new("fa_verify_item[]", batch)
            for i, (m, sg) in enumerate(zip(msgs, sigs)):
                mb, sb = ffi.from_buffer(m), ffi.from_buffer(sg)
                keep += [mb, sb]
                arr[i].pp = pp._pp
                arr[i].msg, arr[i].msg_len = mb, len(m)
                arr[i].sig, arr[i].sig_len = sb, len(sg)

            def run() -> None:
                if lib.fa_verify_batch(pool._ptr, ffi.NULL, 0, arr, batch):
                    raise LoadTestError("baseline verification failed")
        run()
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds or n == 0:
            run()
            n += batch
        dt = time.perf_counter() - t0
        return {"threads": pool.threads, "items_per_s": round(n / dt, 1)}


def thread_cpu_s(pid: int) -> Dict[str, float]:
    """CPU seconds (user + system) of each thread of process pid, by
    thread id, from /proc (Linux); {} where there is no /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    out: Dict[str, float] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        out[tid] = (int(fields[11]) + int(fields[12])) / tick
    return out


def cpu_per_request(pid: int, before: Dict[str, float],
                    after: Dict[str, float], requests: int
                    ) -> Dict[str, float]:
    """Server CPU ms per request between two thread_cpu_s readings: the
    event-loop thread (the process's main thread) and the others (the
    broker's workers)."""
    main = sum(v - before.get(t, 0.0) for t, v in after.items()
               if t == str(pid))
    rest = sum(v - before.get(t, 0.0) for t, v in after.items()
               if t != str(pid))
    n = max(1, requests)
    return {"server_main_ms": round(1000 * main / n, 4),
            "server_workers_ms": round(1000 * rest / n, 4)}


class SpawnedServer:
    """A server subprocess on an ephemeral loopback port."""

    def __init__(self, threads: int, extra: Optional[List[str]] = None):
        self.tmp = tempfile.TemporaryDirectory(prefix="fa-loadtest-")
        d = Path(self.tmp.name)
        self.token = secrets.token_hex(24)
        (d / "token").write_text(self.token + "\n")
        os.chmod(d / "token", 0o600)
        port_file = d / "port"
        cmd = [sys.executable, "-m", "falcon_accel.server", "--host",
               "127.0.0.1", "--port", "0", "--key-dir", str(d / "keys"),
               "--token-file", str(d / "token"), "--port-file",
               str(port_file), "--threads", str(threads)] + (extra or [])
        self.proc = subprocess.Popen(cmd, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while not port_file.exists():
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr \
                    else ""
                raise LoadTestError(f"server exited: {err}")
            if time.monotonic() > deadline:
                self.stop()
                raise LoadTestError("server did not start in 60 s")
            time.sleep(0.05)
        self.port = int(port_file.read_text())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stderr:
            self.proc.stderr.close()
        self.tmp.cleanup()


def merge_rounds(results: List[Dict[str, Any]]) -> Dict[str, Any]:
    """One report from the rounds' reports (latencies pooled)."""
    first = results[0]
    lat: List[float] = [x for r in results for x in r["_latencies"]]
    errors = [e for r in results for e in r["_errors"]]
    elapsed = sum(r["duration_s"] for r in results)
    n = len(lat)
    per = first["items_per_request"]
    out = {k: v for k, v in first.items() if not k.startswith("_")}
    out.update({
        "rounds": len(results), "duration_s": round(elapsed, 3),
        "requests": n,
        "requests_per_s": round(n / elapsed, 1) if elapsed else 0.0,
        "items_per_s": round(n * per / elapsed, 1) if elapsed else 0.0,
        "round_items_per_s": [r["items_per_s"] for r in results],
        "latency_ms": {k: round(v * 1000, 3)
                       for k, v in percentiles(lat).items()},
        "signatures_checked": sum(r["signatures_checked"] for r in results),
        "client_cpu_s": round(sum(r["client_cpu_s"] for r in results), 4),
        "errors": len(errors), "error_samples": errors[:5]})
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m falcon_accel.loadtest",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default=None,
                    help="service URL (loopback only), e.g. "
                         "http://127.0.0.1:8080")
    ap.add_argument("--spawn", action="store_true",
                    help="start a server subprocess on an ephemeral port")
    ap.add_argument("--token-file", default=None,
                    help="bearer token file (needed with --url)")
    ap.add_argument("--mode", choices=MODES, default="verify-batch")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--duration", type=float, default=5.0,
                    help="seconds of load (bounded to 300)")
    ap.add_argument("--max-requests", type=int, default=100000,
                    help="stop after this many requests")
    ap.add_argument("--batch", type=int, default=64,
                    help="items per batch request")
    ap.add_argument("--format", default="compressed",
                    choices=("compressed", "padded", "ct"))
    ap.add_argument("--inline-pk", action="store_true",
                    help="verify requests carry the public key instead of "
                         "a key_id")
    ap.add_argument("--threads", type=int, default=0,
                    help="server broker threads with --spawn, and the raw "
                         "baseline's pool size (0: one per CPU)")
    ap.add_argument("--baseline", action="store_true",
                    help="also measure raw C batch throughput (phases "
                         "alternating with the service's)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="split the run into this many service phases "
                         "(with --baseline: raw phases in between)")
    ap.add_argument("--json", action="store_true", help="JSON report")
    args = ap.parse_args(argv)
    duration = min(max(args.duration, 0.1), 300.0)

    spawned: Optional[SpawnedServer] = None
    rounds = max(1, args.rounds)
    chunk = duration / rounds
    bases: List[float] = []
    results: List[Dict[str, Any]] = []
    try:
        if args.spawn:
            spawned = SpawnedServer(args.threads)
            host, port, token = "127.0.0.1", spawned.port, spawned.token
        elif args.url:
            u = urlparse(args.url)
            if u.scheme != "http" or not u.hostname:
                raise LoadTestError("--url must be http://HOST:PORT")
            host, port = u.hostname, u.port or 80
            check_loopback(host)
            token = Path(args.token_file).read_text().strip() \
                if args.token_file else None
        else:
            raise LoadTestError("give --url or --spawn")
        # With --baseline, raw C phases and service phases alternate
        # (raw, service, raw, service, ..., raw) so that a change of the
        # machine's load shows up in both; each round's ratio uses the
        # mean of the raw phases around it.
        for r in range(rounds):
            if args.baseline:
                bases.append(raw_baseline(args.mode, args.threads,
                                          min(chunk, 5.0),
                                          fmt=args.format)["items_per_s"])
            results.append(run_on_fast_loop(run_load(
                host, port, token, args.mode, args.clients, chunk,
                max(1, args.max_requests // rounds), args.batch,
                args.format, args.inline_pk,
                spawned.proc.pid if spawned else None)))
        if args.baseline:
            bases.append(raw_baseline(args.mode, args.threads,
                                      min(chunk, 5.0),
                                      fmt=args.format)["items_per_s"])
    except (LoadTestError, OSError) as e:
        print(f"loadtest: error: {e}", file=sys.stderr)
        return 1
    finally:
        if spawned is not None:
            spawned.stop()
    report = merge_rounds(results)
    cpus = [r["_cpu"] for r in results if "_cpu" in r]
    if cpus:
        n = report["requests"] or 1
        report["cpu_ms_per_request"] = {
            "server_main": round(sum(c["server_main_ms"] * r["requests"]
                                     for c, r in zip(cpus, results)) / n, 4),
            "server_workers": round(sum(
                c["server_workers_ms"] * r["requests"]
                for c, r in zip(cpus, results)) / n, 4),
            "client": round(1000 * sum(r["client_cpu_s"] for r in results)
                            / n, 4)}
    if args.baseline:
        ratios = [res["items_per_s"] / ((bases[i] + bases[i + 1]) / 2)
                  for i, res in enumerate(results)]
        report["raw_c_items_per_s"] = round(sum(bases) / len(bases), 1)
        report["raw_c_runs_items_per_s"] = bases
        report["raw_c_threads"] = args.threads or core.cpu_count()
        report["round_ratios"] = [round(x, 3) for x in ratios]
        report["service_over_raw"] = round(sorted(ratios)[len(ratios) // 2],
                                           3)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        lat = report["latency_ms"]
        print(f"{report['mode']}: {report['clients']} clients, "
              f"{report['duration_s']} s, {report['requests']} requests "
              f"x {report['items_per_request']} items")
        print(f"  throughput: {report['requests_per_s']} req/s, "
              f"{report['items_per_s']} items/s")
        print(f"  latency ms: p50 {lat['p50']}  p90 {lat['p90']}  "
              f"p99 {lat['p99']}  max {lat['max']}")
        if report["signatures_checked"]:
            print(f"  signatures checked: {report['signatures_checked']}")
        if args.baseline:
            runs = ", ".join(str(x) for x in report["raw_c_runs_items_per_s"])
            print(f"  raw C batch ({report['raw_c_threads']} threads): "
                  f"{report['raw_c_items_per_s']} items/s (phases: {runs})")
            print(f"  service/raw per round: {report['round_ratios']}; "
                  f"median {report['service_over_raw']}")
        cpu = report.get("cpu_ms_per_request")
        if cpu:
            print(f"  CPU ms/request: server event loop "
                  f"{cpu['server_main']}, server workers "
                  f"{cpu['server_workers']}, load-test client "
                  f"{cpu['client']}")
        print(f"  errors: {report['errors']}")
        for e in report["error_samples"]:
            print(f"    {e}")
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
