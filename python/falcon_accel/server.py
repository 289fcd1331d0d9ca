"""HTTP/JSON signing service: ``python -m falcon_accel.server``.

Endpoints (see openapi.json, also served at /openapi.json):

    GET  /health                     liveness and configuration
    GET  /metrics                    Prometheus text format
    GET  /openapi.json               the API description
    POST /v1/keys                    create a key pair        (token)
    GET  /v1/keys/{key_id}           public key
    POST /v1/keys/{key_id}/sign      sign one message         (token)
    POST /v1/sign/batch              sign many messages       (token)
    POST /v1/verify                  verify one signature
    POST /v1/verify/batch            verify many signatures

Binary values are base64 (RFC 4648, with padding) in JSON. Signing and key
creation need ``Authorization: Bearer <token>`` with the token read from
the --token-file; without a token file they are refused (403). Errors are
JSON ``{"error": {"status", "code", "message"[, "fa_code"]}}``; the
connection and the service survive every bad request.

The server is a small HTTP/1.1 implementation on asyncio streams
(keep-alive, Content-Length bodies only); all cryptography runs on the C
broker's threads and completions come back through the event loop, so one
Python thread serves every connection.
"""
from __future__ import annotations

import argparse
import array
import asyncio
import base64
import binascii
import hmac
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import core
from ._ffi import ffi, lib
from .broker import SIZE_T, Broker
from .keystore import KeyStore

DEFAULT_MAX_BODY = 1 << 20
DEFAULT_MAX_ITEMS = 1024
MAX_HEADER_BYTES = 16384
IDLE_TIMEOUT_S = 60.0      # keep-alive connection with no new request
READ_TIMEOUT_S = 30.0      # request head or body arriving too slowly
REASONS = {200: "OK", 201: "Created", 400: "Bad Request",
           401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
           405: "Method Not Allowed", 411: "Length Required",
           413: "Payload Too Large", 415: "Unsupported Media Type",
           422: "Unprocessable Entity", 431: "Request Header Fields Too Large",
           500: "Internal Server Error", 501: "Not Implemented",
           503: "Service Unavailable", 504: "Gateway Timeout"}


def openapi_path() -> Path:
    """The packaged openapi.json, or python/openapi.json in a checkout."""
    here = Path(__file__).resolve().parent
    for p in (here / "openapi.json", here.parent / "openapi.json"):
        if p.exists():
            return p
    raise FileNotFoundError("openapi.json")


class HttpError(Exception):
    def __init__(self, status: int, code: str, message: str,
                 fa_code: Optional[int] = None,
                 headers: Optional[Dict[str, str]] = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fa_code = fa_code
        self.headers = headers or {}

    def body(self) -> Dict[str, Any]:
        err: Dict[str, Any] = {"status": self.status, "code": self.code,
                               "message": self.message}
        if self.fa_code is not None:
            err["fa_code"] = self.fa_code
        return {"error": err}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


if sys.version_info >= (3, 11):
    def _strict_b64(v: str) -> bytes:
        return binascii.a2b_base64(v, strict_mode=True)
else:
    def _strict_b64(v: str) -> bytes:
        return base64.b64decode(v, validate=True)

if sys.version_info >= (3, 11):
    async def _read_within(aw, seconds: float):
        """Await `aw` for at most `seconds` (asyncio.TimeoutError)."""
        async with asyncio.timeout(seconds):   # no task per read
            return await aw
else:
    async def _read_within(aw, seconds: float):
        return await asyncio.wait_for(aw, seconds)

# Largest signature per public-key header byte (0x01..0x0A).
_SIG_MAX = {logn: core.signature_max_size(logn) for logn in range(1, 11)}


def _unb64(obj: Dict[str, Any], field: str, where: str = "") -> bytes:
    v = obj.get(field)
    if not isinstance(v, str):
        raise HttpError(400, "bad_request",
                        f"{where}{field}: required base64 string")
    try:
        return _strict_b64(v)
    except (binascii.Error, ValueError):
        raise HttpError(400, "bad_request", f"{where}{field}: invalid base64")


def _fmt(obj: Dict[str, Any], verify: bool) -> core.SigFormat:
    v = obj.get("format", "any" if verify else "compressed")
    if not isinstance(v, str):
        raise HttpError(400, "bad_request", "format: must be a string")
    try:
        return core.sig_format(v, verify=verify)
    except core.FalconError:
        allowed = "compressed, padded, ct" + (", any" if verify else "")
        raise HttpError(400, "bad_request",
                        f"format: {v!r} is not one of {allowed}")


def _check_public_key(pk: bytes, where: str = "") -> None:
    ok = len(pk) >= 2 and (pk[0] & 0xF0) == 0 and 1 <= (pk[0] & 0x0F) <= 10
    if not ok or len(pk) != core.public_key_size(pk[0] & 0x0F):
        raise HttpError(400, "bad_request",
                        f"{where}public_key: not an encoded Falcon public "
                        f"key (wrong header or size, {len(pk)} bytes)")


def _check_signature(sig: bytes, logn: int, where: str = "") -> None:
    if not 42 <= len(sig) <= core.signature_max_size(logn):
        raise HttpError(400, "bad_request",
                        f"{where}signature: {len(sig)} bytes, not a "
                        f"possible size for degree {1 << logn}")


def _fa_error(e: core.FalconError) -> HttpError:
    if isinstance(e, core.BusyError):
        return HttpError(503, "busy", "signing queue full, retry later",
                         e.code, {"Retry-After": "1"})
    if isinstance(e, core.DeadlineError):
        return HttpError(504, "deadline", "request timed out in the queue",
                         e.code)
    if isinstance(e, core.CancelledError):
        return HttpError(503, "cancelled", "request cancelled", e.code)
    return HttpError(422, "falcon_error", str(e), e.code)


class SigningService:
    """Request handling, independent of the HTTP transport."""

    def __init__(self, key_dir: os.PathLike, token: Optional[str],
                 broker: Broker, max_items: int = DEFAULT_MAX_ITEMS,
                 job_timeout: float = 30.0, default_logn: int = 9):
        self.keys = KeyStore(key_dir)
        self.token = token
        self.broker = broker
        self.max_items = max_items
        self.job_timeout = job_timeout
        self.default_logn = default_logn
        self.started = time.time()
        self.requests: Dict[str, int] = {}
        self.openapi = openapi_path().read_bytes()
        self.routes: List[Tuple[str, List[str], Callable]] = [
            ("GET", ["health"], self.health),
            ("GET", ["metrics"], self.metrics),
            ("GET", ["openapi.json"], self.get_openapi),
            ("POST", ["v1", "keys"], self.create_key),
            ("GET", ["v1", "keys", "*"], self.get_key),
            ("POST", ["v1", "keys", "*", "sign"], self.sign_one),
            ("POST", ["v1", "sign", "batch"], self.sign_batch),
            ("POST", ["v1", "verify"], self.verify_one),
            ("POST", ["v1", "verify", "batch"], self.verify_batch),
        ]

    # -- plumbing -------------------------------------------------------------

    def _auth(self, headers: Dict[str, str]) -> None:
        if self.token is None:
            raise HttpError(403, "forbidden",
                            "signing is disabled: no --token-file configured")
        got = headers.get("authorization", "")
        if not got.startswith("Bearer ") or not hmac.compare_digest(
                got[7:].strip().encode(), self.token.encode()):
            raise HttpError(401, "unauthorized",
                            "missing or wrong bearer token",
                            headers={"WWW-Authenticate": "Bearer"})

    @staticmethod
    def _json(body: bytes, headers: Dict[str, str],
              allow_empty: bool = False) -> Dict[str, Any]:
        if not body and allow_empty:
            return {}
        ctype = headers.get("content-type", "application/json")
        if "json" not in ctype.split(";")[0]:
            raise HttpError(415, "unsupported_media_type",
                            "body must be application/json")
        try:
            obj = json.loads(body)
        except (ValueError, UnicodeDecodeError) as e:
            raise HttpError(400, "bad_json", f"malformed JSON: {e}")
        if not isinstance(obj, dict):
            raise HttpError(400, "bad_json", "body must be a JSON object")
        return obj

    def _items(self, obj: Dict[str, Any]) -> List[Any]:
        items = obj.get("items")
        if not isinstance(items, list) or not items:
            raise HttpError(400, "bad_request",
                            "items: required non-empty array")
        if len(items) > self.max_items:
            raise HttpError(413, "too_many_items",
                            f"items: {len(items)} > limit {self.max_items}")
        for i, it in enumerate(items):
            if not isinstance(it, dict):
                raise HttpError(400, "bad_request",
                                f"items[{i}]: must be an object")
        return items

    def _key(self, key_id: Any, where: str = ""):
        try:
            rec = self.keys.get(key_id) if isinstance(key_id, str) else None
        except core.FalconError as e:
            raise HttpError(500, "bad_key_file", str(e), e.code)
        if rec is None:
            raise HttpError(404, "unknown_key", f"{where}key_id: unknown "
                            f"key {key_id!r}" if isinstance(key_id, str)
                            else f"{where}key_id: required string")
        return rec

    async def dispatch(self, method: str, target: str,
                       headers: Dict[str, str], body: bytes
                       ) -> Tuple[int, Dict[str, str], bytes]:
        path = target.split("?", 1)[0]
        parts = [p for p in path.split("/") if p]
        try:
            allowed = []
            for m, pattern, fn in self.routes:
                if len(pattern) == len(parts) and all(
                        a == "*" or a == b for a, b in zip(pattern, parts)):
                    if m == method or (m == "GET" and method == "HEAD"):
                        args = [b for a, b in zip(pattern, parts) if a == "*"]
                        status, hdrs, out = await fn(headers, body, *args)
                        break
                    allowed.append(m)
            else:
                if allowed:
                    raise HttpError(405, "method_not_allowed",
                                    f"{method} not allowed on {path}",
                                    headers={"Allow": ", ".join(allowed)})
                raise HttpError(404, "not_found", f"no route {path}")
        except HttpError as e:
            status, hdrs = e.status, dict(e.headers)
            out = json.dumps(e.body()).encode()
            hdrs["Content-Type"] = "application/json"
        except core.FalconError as e:
            he = _fa_error(e)
            status, hdrs = he.status, dict(he.headers)
            out = json.dumps(he.body()).encode()
            hdrs["Content-Type"] = "application/json"
        key = str(status)
        self.requests[key] = self.requests.get(key, 0) + 1
        return status, hdrs, out

    @staticmethod
    def _ok(obj: Any, status: int = 200):
        return (status, {"Content-Type": "application/json"},
                json.dumps(obj, separators=(",", ":")).encode())

    # -- handlers ---------------------------------------------------------------

    async def health(self, headers, body):
        return self._ok({
            "status": "ok",
            "backend": core.default_backend().name,
            "threads": self.broker.threads,
            "signing_enabled": self.token is not None,
            "uptime_s": round(time.time() - self.started, 3)})

    async def get_openapi(self, headers, body):
        return 200, {"Content-Type": "application/json"}, self.openapi

    async def metrics(self, headers, body):
        return (200, {"Content-Type": "text/plain; version=0.0.4"},
                prometheus_text(self.broker.metrics(), self.requests,
                                len(self.keys.ids())).encode())

    async def create_key(self, headers, body):
        self._auth(headers)
        obj = self._json(body, headers, allow_empty=True)
        logn = obj.get("logn", self.default_logn)
        if not isinstance(logn, int) or isinstance(logn, bool) \
                or not 1 <= logn <= 10:
            raise HttpError(400, "bad_request",
                            "logn: integer in 1..10 (9: Falcon-512, "
                            "10: Falcon-1024)")
        loop = asyncio.get_running_loop()
        rec = await loop.run_in_executor(None, self.keys.create, logn)
        self.broker.preload_key(rec.secret_key)
        return self._ok({"key_id": rec.key_id, "logn": rec.logn,
                         "public_key": _b64(rec.public_key)}, 201)

    async def get_key(self, headers, body, key_id):
        rec = self._key(key_id)
        return self._ok({"key_id": rec.key_id, "logn": rec.logn,
                         "public_key": _b64(rec.public_key)})

    async def sign_one(self, headers, body, key_id):
        self._auth(headers)
        obj = self._json(body, headers)
        rec = self._key(key_id)
        msg = _unb64(obj, "message")
        fmt = _fmt(obj, verify=False)
        sigs = await self.broker.sign_async([(rec.secret_key, msg)], fmt,
                                            self.job_timeout)
        return self._ok({"key_id": rec.key_id, "format": fmt.name.lower(),
                         "signature": _b64(sigs[0])})

    async def sign_batch(self, headers, body):
        self._auth(headers)
        obj = self._json(body, headers)
        fmt = _fmt(obj, verify=False)
        raw = self._items(obj)
        packed = self._pack_fast(raw, ("message",), True)
        if packed is not None:
            sigs = await self.broker.sign_async(packed, fmt,
                                                self.job_timeout,
                                                flat="packed")
            return self._ok({"format": fmt.name.lower(),
                             "signatures": [_b64(s) for s in sigs]})
        parts: List[bytes] = []
        memo: Dict[Any, bytes] = {}
        for i, it in enumerate(raw):
            kid = it.get("key_id")
            sk = memo.get(kid) if isinstance(kid, str) else None
            if sk is None:
                sk = self._key(kid, f"items[{i}].").secret_key
                memo[kid] = sk
            parts.append(sk)
            parts.append(_unb64(it, "message", f"items[{i}]."))
        sigs = await self.broker.sign_async(parts, fmt, self.job_timeout,
                                            flat=True)
        return self._ok({"format": fmt.name.lower(),
                         "signatures": [_b64(s) for s in sigs]})

    def _verify_item(self, it: Dict[str, Any], where: str = "",
                     memo: Optional[Dict[Any, bytes]] = None):
        """(public key, message, signature) of a request item; `memo`
        caches key lookups and checks within one request."""
        memo = {} if memo is None else memo
        if "key_id" in it:
            kid = it["key_id"]
            pk = memo.get(kid) if isinstance(kid, str) else None
            if pk is None:
                pk = self._key(kid, where).public_key
                memo[kid] = pk
        else:
            enc = it.get("public_key")
            pk = memo.get(("pk", enc)) if isinstance(enc, str) else None
            if pk is None:
                pk = _unb64(it, "public_key", where)
                _check_public_key(pk, where)
                memo[("pk", enc)] = pk
        msg = _unb64(it, "message", where)
        sig = _unb64(it, "signature", where)
        _check_signature(sig, pk[0] & 0x0F, where)
        return pk, msg, sig

    def _pack_fast(self, items: List[Any], fields: Tuple[str, ...],
                   secret: bool):
        """(data, lens, n) for fa_broker_submit_packed from well-formed
        items addressed by key_id, with the base64 fields decoded in C;
        None for anything else (the detailed path then validates and
        reports the problem)."""
        keys: List[bytes] = []
        index: Dict[Any, int] = {}
        kidx = array.array("I")
        strs: List[str] = []
        try:
            for it in items:
                kid = it["key_id"]
                x = index.get(kid)
                if x is None:
                    rec = self.keys.get(kid)
                    if rec is None:
                        return None
                    x = index[kid] = len(keys)
                    keys.append(rec.secret_key if secret else rec.public_key)
                kidx.append(x)
                for f in fields:
                    strs.append(it[f])
            blob = "".join(strs).encode("ascii")
        except Exception:
            return None
        n, per = len(items), len(fields)
        keyblob = b"".join(keys)
        klens = array.array(SIZE_T, map(len, keys))
        cap = n * max(klens) + len(blob) // 4 * 3
        out = bytearray(cap)
        lens = array.array(SIZE_T, bytes(ffi.sizeof("size_t") * (1 + per) * n))
        r = lib.fa_py_pack_b64_items(
            ffi.from_buffer(keyblob), ffi.from_buffer("size_t[]", klens),
            len(keys), ffi.from_buffer("uint32_t[]", kidx),
            ffi.from_buffer(blob), len(blob),
            ffi.from_buffer("size_t[]", array.array(SIZE_T, map(len, strs))),
            per, n, ffi.from_buffer(out), cap,
            ffi.from_buffer("size_t[]", lens))
        if r < 0:
            return None
        if not secret:
            sig_lens = lens[2::3]
            limit = min(_SIG_MAX[k[0] & 0x0F] for k in keys)
            if min(sig_lens) < 42 or max(sig_lens) > limit:
                return None
        return memoryview(out)[:r], lens, n

    async def verify_one(self, headers, body):
        obj = self._json(body, headers)
        fmt = _fmt(obj, verify=True)
        item = self._verify_item(obj)
        st = (await self.broker.verify_async([item], fmt,
                                             self.job_timeout))[0]
        out: Dict[str, Any] = {"valid": st == 0}
        if st != 0:
            out["reason"] = core.ERROR_NAMES.get(st, str(st)).lower()
        return self._ok(out)

    async def verify_batch(self, headers, body):
        obj = self._json(body, headers)
        fmt = _fmt(obj, verify=True)
        raw = self._items(obj)
        packed = self._pack_fast(raw, ("message", "signature"), False)
        if packed is not None:
            sts = await self.broker.verify_async(packed, fmt,
                                                 self.job_timeout,
                                                 flat="packed")
        else:
            memo: Dict[Any, bytes] = {}
            parts = [p for i, it in enumerate(raw)
                     for p in self._verify_item(it, f"items[{i}].", memo)]
            sts = await self.broker.verify_async(parts, fmt,
                                                 self.job_timeout, flat=True)
        return self._ok({"results": [s == 0 for s in sts],
                         "valid": sum(1 for s in sts if s == 0)})


def prometheus_text(m: Dict[str, Any], requests: Dict[str, int],
                    nkeys: int) -> str:
    """Broker metrics in the Prometheus text exposition format 0.0.4."""
    out: List[str] = []

    def metric(name: str, kind: str, help_: str, samples) -> None:
        out.append(f"# HELP {name} {help_}")
        out.append(f"# TYPE {name} {kind}")
        for labels, value in samples:
            lab = ",".join(f'{k}="{v}"' for k, v in labels.items())
            out.append(f"{name}{{{lab}}} {value}" if lab
                       else f"{name} {value}")

    g = "falcon_broker_"
    metric(g + "queue_depth", "gauge", "Items waiting in the queue.",
           [({}, m["queue_depth"])])
    metric(g + "queue_capacity", "gauge", "Queue bound in items.",
           [({}, m["queue_capacity"])])
    metric(g + "queue_bytes", "gauge", "Bytes held by unfinished jobs.",
           [({}, m["queue_bytes"])])
    metric(g + "in_flight", "gauge", "Items being processed.",
           [({}, m["in_flight"])])
    metric(g + "threads", "gauge", "Broker worker threads.",
           [({}, m["threads"])])
    for field, help_ in (
            ("jobs_submitted", "Jobs accepted."),
            ("jobs_completed", "Jobs completed."),
            ("items_submitted", "Items accepted."),
            ("items_completed", "Items processed."),
            ("items_failed", "Items processed with an error result."),
            ("items_cancelled", "Items cancelled before running."),
            ("items_expired", "Items whose deadline passed in the queue."),
            ("rejected_busy", "Submissions refused: queue full."),
            ("cache_hits", "Key cache hits."),
            ("cache_misses", "Key cache misses."),
            ("cache_evictions", "Key cache evictions.")):
        metric(g + field + "_total", "counter", help_, [({}, m[field])])
    metric(g + "cache_bytes", "gauge", "Key cache bytes in use.",
           [({}, m["cache_bytes"])])
    metric(g + "cache_entries", "gauge", "Keys in the cache.",
           [({}, m["cache_entries"])])
    # Batch sizes as a Prometheus histogram (cumulative buckets).
    cum, samples = 0, []
    for k, c in enumerate(m["batch_hist"]):
        cum += c
        le = "+Inf" if k == len(m["batch_hist"]) - 1 else str(1 << k)
        samples.append(({"le": le}, cum))
    out.append(f"# HELP {g}batch_size Items per dispatched batch.")
    out.append(f"# TYPE {g}batch_size histogram")
    for labels, v in samples:
        out.append(f'{g}batch_size_bucket{{le="{labels["le"]}"}} {v}')
    out.append(f"{g}batch_size_sum {m['items_completed']}")
    out.append(f"{g}batch_size_count {m['batches']}")
    metric(g + "job_latency_seconds", "gauge",
           "Job latency quantiles over the last 8192 jobs.",
           [({"quantile": q}, m[f"latency_{p}_us"] / 1e6)
            for q, p in (("0.5", "p50"), ("0.9", "p90"), ("0.99", "p99"),
                         ("1", "max"))])
    up = max(m["uptime_us"], 1) / 1e6
    be_items, be_rate, be_busy = [], [], []
    for b in m["backends"]:
        for op in ("sign", "verify"):
            n = b[f"{op}_items"]
            be_items.append(({"backend": b["name"], "op": op}, n))
            be_rate.append(({"backend": b["name"], "op": op},
                            round(n / up, 3)))
        be_busy.append(({"backend": b["name"]}, b["busy_us"] / 1e6))
    metric(g + "backend_items_total", "counter",
           "Items processed per backend and operation.", be_items)
    metric(g + "backend_items_per_second", "gauge",
           "Average throughput per backend since start.", be_rate)
    metric(g + "backend_busy_seconds_total", "counter",
           "Worker time spent in batches per backend.", be_busy)
    metric(g + "uptime_seconds", "gauge", "Broker uptime.", [({}, up)])
    metric("falcon_http_requests_total", "counter",
           "HTTP responses by status code.",
           [({"code": k}, v) for k, v in sorted(requests.items())])
    metric("falcon_keys", "gauge", "Keys in the key directory.",
           [({}, nkeys)])
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# HTTP/1.1 transport

class HttpServer:
    def __init__(self, service: SigningService,
                 max_body: int = DEFAULT_MAX_BODY):
        self.service = service
        self.max_body = max_body
        self.server: Optional[asyncio.AbstractServer] = None
        self.tasks: set = set()

    async def start(self, host: str, port: int) -> int:
        # The stream buffer limit also bounds how much is buffered before
        # reading pauses: keep it above the largest body (a small one
        # makes big bodies arrive in many pause/resume steps). The head
        # size is checked separately.
        self.server = await asyncio.start_server(
            self._conn, host, port, limit=max(self.max_body, 1 << 16),
            reuse_address=True)
        return self.server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        """Stop listening and end the open connections."""
        if self.server is not None:
            self.server.close()
        for t in list(self.tasks):
            t.cancel()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
        if self.server is not None:
            await self.server.wait_closed()

    @staticmethod
    def _response(status: int, headers: Dict[str, str], body: bytes,
                  keep_alive: bool, head: bool = False) -> bytes:
        lines = [f"HTTP/1.1 {status} {REASONS.get(status, 'Status')}"]
        headers = dict(headers)
        headers["Content-Length"] = str(len(body))
        headers["Connection"] = "keep-alive" if keep_alive else "close"
        lines += [f"{k}: {v}" for k, v in headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + (
            b"" if head else body)

    def _error(self, status: int, code: str, message: str) -> bytes:
        body = json.dumps(HttpError(status, code, message).body()).encode()
        return self._response(status, {"Content-Type": "application/json"},
                              body, keep_alive=False)

    async def _conn(self, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        self.tasks.add(task)
        try:
            while True:
                try:
                    head = await _read_within(
                        reader.readuntil(b"\r\n\r\n"), IDLE_TIMEOUT_S)
                except (asyncio.IncompleteReadError, asyncio.TimeoutError):
                    break
                except (asyncio.LimitOverrunError, ValueError):
                    writer.write(self._error(431, "headers_too_large",
                                             "request head over 16 KiB"))
                    break
                if len(head) > MAX_HEADER_BYTES:
                    writer.write(self._error(431, "headers_too_large",
                                             "request head over 16 KiB"))
                    break
                out, keep = await self._request(head, reader)
                writer.write(out)
                await writer.drain()
                if not keep:
                    break
        except (ConnectionError, asyncio.IncompleteReadError,
                asyncio.CancelledError):
            pass
        finally:
            self.tasks.discard(task)
            try:
                writer.close()
            except Exception:
                pass

    async def _request(self, head: bytes, reader: asyncio.StreamReader
                       ) -> Tuple[bytes, bool]:
        try:
            text = head.decode("latin-1")
            lines = text.split("\r\n")
            method, target, version = lines[0].split(" ")
            if not version.startswith("HTTP/1."):
                raise ValueError
            headers: Dict[str, str] = {}
            for line in lines[1:]:
                if line:
                    k, v = line.split(":", 1)
                    headers[k.strip().lower()] = v.strip()
        except ValueError:
            return self._error(400, "bad_request", "malformed request"), False
        conn = headers.get("connection", "").lower()
        keep = conn != "close" if version == "HTTP/1.1" \
            else conn == "keep-alive"
        if "transfer-encoding" in headers:
            return self._error(501, "not_implemented",
                               "chunked bodies are not supported; send "
                               "Content-Length"), False
        cl = headers.get("content-length", "0")
        if not cl.isdigit():
            return self._error(400, "bad_request",
                               "invalid Content-Length"), False
        length = int(cl)
        if length > self.max_body:
            # The body is not read: the connection is closed after the
            # answer.
            return self._error(413, "body_too_large",
                               f"body of {length} bytes over the limit of "
                               f"{self.max_body}"), False
        try:
            body = await _read_within(reader.readexactly(length),
                                      READ_TIMEOUT_S) if length else b""
        except asyncio.TimeoutError:
            return self._error(400, "bad_request",
                               "request body not received in time"), False
        status, hdrs, out = await self.service.dispatch(method, target,
                                                        headers, body)
        return self._response(status, hdrs, out, keep,
                              head=method == "HEAD"), keep


# ---------------------------------------------------------------------------
# Running

def read_token(path: Optional[os.PathLike]) -> Optional[str]:
    if path is None:
        return None
    token = Path(path).read_text().strip()
    if len(token) < 16:
        raise SystemExit(f"token file {path}: token shorter than 16 "
                         "characters")
    return token


class RunningServer:
    """A server on its own event loop thread (tests, embedding)."""

    def __init__(self, key_dir: os.PathLike, token: Optional[str],
                 host: str = "127.0.0.1", port: int = 0, threads: int = 0,
                 max_body: int = DEFAULT_MAX_BODY,
                 max_items: int = DEFAULT_MAX_ITEMS,
                 queue_capacity: int = 0, backend: Optional[str] = None,
                 job_timeout: float = 30.0):
        self.broker = Broker(threads=threads, queue_capacity=queue_capacity,
                             backend=backend)
        self.service = SigningService(key_dir, token, self.broker, max_items,
                                      job_timeout)
        self.http = HttpServer(self.service, max_body)
        self.loop = asyncio.new_event_loop()
        self.host = host
        self.port = 0
        started = threading.Event()
        self._error: Optional[BaseException] = None

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            try:
                self.port = self.loop.run_until_complete(
                    self.http.start(host, port))
            except BaseException as e:  # reported to the constructor
                self._error = e
                started.set()
                return
            started.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True,
                                       name="falcon-accel-server")
        self.thread.start()
        started.wait()
        if self._error is not None:
            self.broker.close()
            raise self._error

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def stop(self) -> None:
        if not self.thread.is_alive():
            return
        fut = asyncio.run_coroutine_threadsafe(self.http.close(), self.loop)
        try:
            fut.result(5)
        except Exception:
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.broker.close()

    def __enter__(self) -> "RunningServer":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


async def _main_async(args: argparse.Namespace) -> None:
    broker = Broker(threads=args.threads, queue_capacity=args.queue_capacity,
                    backend=args.backend)
    service = SigningService(args.key_dir, read_token(args.token_file),
                             broker, args.max_items, args.job_timeout,
                             args.default_logn)
    http = HttpServer(service, args.max_body)
    port = await http.start(args.host, args.port)
    for kid in service.keys.ids():
        rec = service.keys.get(kid)
        if rec is not None:
            broker.preload_key(rec.secret_key)
    print(f"falcon_accel.server: listening on http://{args.host}:{port} "
          f"(backend {core.default_backend().name if not args.backend else args.backend}, "
          f"{broker.threads} threads, keys in {args.key_dir})",
          file=sys.stderr, flush=True)
    if args.port_file:
        tmp = Path(str(args.port_file) + ".tmp")
        tmp.write_text(f"{port}\n")
        os.rename(tmp, args.port_file)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await http.close()
    broker.close()


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m falcon_accel.server",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1",
                    help="address to bind (default 127.0.0.1)")
    ap.add_argument("--port", type=int, default=8080,
                    help="TCP port, 0 for any free one (default 8080)")
    ap.add_argument("--key-dir", default="falcon-keys",
                    help="key directory (created 0700 if missing)")
    ap.add_argument("--token-file", default=None,
                    help="file holding the bearer token for signing and "
                         "key creation (without it they are refused)")
    ap.add_argument("--threads", type=int, default=0,
                    help="broker worker threads (0: one per CPU)")
    ap.add_argument("--queue-capacity", type=int, default=0,
                    help="broker queue bound in items (0: 4096)")
    ap.add_argument("--max-body", type=int, default=DEFAULT_MAX_BODY,
                    help="largest request body in bytes")
    ap.add_argument("--max-items", type=int, default=DEFAULT_MAX_ITEMS,
                    help="largest batch request in items")
    ap.add_argument("--job-timeout", type=float, default=30.0,
                    help="deadline of each request in the queue, seconds")
    ap.add_argument("--default-logn", type=int, default=9,
                    help="degree of new keys when the request names none")
    ap.add_argument("--backend", default=None,
                    help="backend name (default: fastest available)")
    ap.add_argument("--port-file", default=None,
                    help="write the bound port to this file when ready")
    args = ap.parse_args(argv)
    if args.backend:
        core.backend(args.backend)  # fail early if unavailable
    asyncio.run(_main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
