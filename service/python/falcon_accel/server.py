"""HTTP/JSON signing service: ``python -m falcon_accel.server``.

Endpoints (see openapi.json, also served at /openapi.json):

    GET  /health                     liveness and configuration
    GET  /metrics                    Prometheus text format
    GET  /openapi.json               the API description
    POST /v1/keys                    create a key pair        (token)
    GET  /v1/keys                    list the keys            (token)
    GET  /v1/keys/{key_id}           public key
    POST /v1/keys/{key_id}/sign      sign one message         (token)
    POST /v1/sign/batch              sign many messages       (token)
    POST /v1/verify                  verify one signature
    POST /v1/verify/batch            verify many signatures

Binary values are base64 (RFC 4648, with padding) in JSON. Keys are
round-3 Falcon (``"scheme": "falcon"``, the default) or FN-DSA as fn-dsa
0.4.0 makes them (``"scheme": "fn-dsa"``), stored with their scheme;
requests on FN-DSA keys may carry a ``context`` (base64, 0..255 bytes)
and a ``prehash`` (the ``message`` is then the hash), which falcon keys
refuse (400 naming the field). FN-DSA items run on the broker's Python
fallback (falcon_accel.broker), round-3 items on the C broker. Signing and key
creation need ``Authorization: Bearer <token>`` with the token read from
the --token-file; without a token file they are refused (403). Errors are
JSON ``{"error": {"status", "code", "message"[, "fa_code"]}}``; the
connection and the service survive every bad request.

The application is ASGI (Starlette) served by uvicorn: optional TLS
(--tls-cert/--tls-key), a bound on open connections (--max-connections;
over it requests get a 503 JSON error), and on SIGTERM or SIGINT a
graceful shutdown that stops accepting, lets in-flight requests finish,
then stops the broker. All cryptography runs on the C broker's threads;
completions come back through the event loop. Batch bodies are read by
one parser, in C (falcon_accel.broker.BatchFront: read, base64-decoded,
key ids looked up in the key registry, submitted and answered with no
Python object per item); a body it leaves (FALLBACK_REASONS: another
form, an FN-DSA or unknown key id, bad base64...) goes to the strict
Python fallback (``_strict_fallback_sign_batch`` /
``_strict_fallback_verify_batch``: the json module), which names the
culprit of a bad request. The keys are in one registry
(falcon_accel.keystore.KeyRegistry), filled by the key directory.
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import binascii
import hmac
import json
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import uvicorn
from prometheus_client import CollectorRegistry, Counter, Gauge
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import (CounterMetricFamily, GaugeMetricFamily,
                                    HistogramMetricFamily)
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route

from . import core
from .broker import (OP_SIGN, OP_VERIFY, BatchFront, Broker, SignItem,
                     VerifyItem)
from .keystore import KeyStore

DEFAULT_MAX_BODY = 1 << 20
DEFAULT_MAX_ITEMS = 1024
DEFAULT_MAX_CONNECTIONS = 1024
IDLE_TIMEOUT_S = 60        # keep-alive connection with no new request
READ_TIMEOUT_S = 30.0      # request body arriving too slowly
SHUTDOWN_TIMEOUT_S = 30    # in-flight requests at SIGTERM, then cancelled

# The routes: method, path, handler, token needed, request and response
# models (component schemas of openapi.json; the tests check the document
# against this table and REQUEST_FIELDS, and responses against it).
ROUTES: List[Tuple[str, str, str, bool, Optional[str], Optional[str]]] = [
    ("GET", "/health", "health", False, None, "Health"),
    ("GET", "/metrics", "metrics", False, None, None),
    ("GET", "/openapi.json", "get_openapi", False, None, None),
    ("POST", "/v1/keys", "create_key", True, "CreateKeyRequest",
     "PublicKey"),
    ("GET", "/v1/keys", "list_keys", True, None, "KeyList"),
    ("GET", "/v1/keys/{key_id}", "get_key", False, None, "PublicKey"),
    ("POST", "/v1/keys/{key_id}/sign", "sign_one", True, "SignRequest",
     "SignResponse"),
    ("POST", "/v1/sign/batch", "sign_batch", True, "SignBatchRequest",
     "SignBatchResponse"),
    ("POST", "/v1/verify", "verify_one", False, "VerifyRequest",
     "VerifyResponse"),
    ("POST", "/v1/verify/batch", "verify_batch", False,
     "VerifyBatchRequest", "VerifyBatchResponse"),
]

# Fields the handlers read from each request model: (all, required).
REQUEST_FIELDS: Dict[str, Tuple[frozenset, frozenset]] = {
    "CreateKeyRequest": (frozenset({"logn", "scheme"}), frozenset()),
    "SignRequest": (frozenset({"message", "format", "context", "prehash"}),
                    frozenset({"message"})),
    "SignBatchRequest": (frozenset({"items", "format"}),
                         frozenset({"items"})),
    "SignBatchItem": (frozenset({"key_id", "message", "context",
                                 "prehash"}),
                      frozenset({"key_id", "message"})),
    "VerifyRequest": (frozenset({"key_id", "public_key", "scheme",
                                 "message", "signature", "context",
                                 "prehash", "format"}),
                      frozenset({"message", "signature"})),
    "VerifyBatchRequest": (frozenset({"items", "format"}),
                           frozenset({"items"})),
    "VerifyItem": (frozenset({"key_id", "public_key", "scheme", "message",
                              "signature", "context", "prehash"}),
                   frozenset({"message", "signature"})),
}


def openapi_path() -> Path:
    """The packaged openapi.json, or service/python/openapi.json in a checkout."""
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

    def response(self) -> Response:
        return Response(json.dumps(self.body()).encode(), self.status,
                        self.headers, "application/json")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


if sys.version_info >= (3, 11):
    def _strict_b64(v: str) -> bytes:
        return binascii.a2b_base64(v, strict_mode=True)

    def _within(seconds: float):
        return asyncio.timeout(seconds)
else:
    def _strict_b64(v: str) -> bytes:
        return base64.b64decode(v, validate=True)

    class _within:  # asyncio.timeout for Python < 3.11
        def __init__(self, seconds: float):
            self.seconds = seconds

        async def __aenter__(self):
            loop = asyncio.get_running_loop()
            task = asyncio.current_task()
            self.expired = False

            def fire():
                self.expired = True
                task.cancel()
            self.handle = loop.call_later(self.seconds, fire)

        async def __aexit__(self, et, ev, tb):
            self.handle.cancel()
            if self.expired and et is asyncio.CancelledError:
                raise asyncio.TimeoutError
            return False


def _unb64(obj: Dict[str, Any], field: str, where: str = "") -> bytes:
    v = obj.get(field)
    if not isinstance(v, str):
        raise HttpError(400, "bad_request",
                        f"{where}{field}: required base64 string")
    try:
        return _strict_b64(v)
    except (binascii.Error, ValueError):
        raise HttpError(400, "bad_request", f"{where}{field}: invalid base64")


def _fmt_value(v: Any, verify: bool) -> core.SigFormat:
    if v is None:
        v = "any" if verify else "compressed"
    if not isinstance(v, str):
        raise HttpError(400, "bad_request", "format: must be a string")
    try:
        return core.sig_format(v, verify=verify)
    except core.FalconError:
        allowed = "compressed, padded, ct" + (", any" if verify else "")
        raise HttpError(400, "bad_request",
                        f"format: {v!r} is not one of {allowed}")


def _fmt(obj: Dict[str, Any], verify: bool) -> core.SigFormat:
    """The request's "format": absent, the default; null is no format."""
    v = obj.get("format")
    if v is None and "format" in obj:
        raise HttpError(400, "bad_request", "format: must be a string")
    return _fmt_value(v, verify)


def _check_public_key(pk: bytes, where: str = "",
                      scheme: str = core.FALCON) -> None:
    low = 2 if scheme == core.FNDSA else 1
    ok = len(pk) >= 2 and (pk[0] & 0xF0) == 0 and \
        low <= (pk[0] & 0x0F) <= 10
    if not ok or len(pk) != core.public_key_size(pk[0] & 0x0F, scheme):
        raise HttpError(400, "bad_request",
                        f"{where}public_key: not an encoded "
                        f"{'FN-DSA' if low == 2 else 'Falcon'} public "
                        f"key (wrong header or size, {len(pk)} bytes)")


def _check_signature(sig: bytes, logn: int, where: str = "",
                     scheme: str = core.FALCON) -> None:
    if scheme == core.FNDSA:
        size = core.signature_size(logn, scheme=scheme)
        if len(sig) != size:
            raise HttpError(400, "bad_request",
                            f"{where}signature: {len(sig)} bytes, FN-DSA "
                            f"signatures of degree {1 << logn} are {size}")
        return
    if not 42 <= len(sig) <= core.signature_max_size(logn):
        raise HttpError(400, "bad_request",
                        f"{where}signature: {len(sig)} bytes, not a "
                        f"possible size for degree {1 << logn}")


def _scheme_value(v: Any, where: str = "") -> str:
    if not isinstance(v, str) or v not in core.SCHEMES:
        raise HttpError(400, "bad_request", f"{where}scheme: {v!r} is not "
                        f"one of {', '.join(core.SCHEMES)}")
    return v


def _fndsa_fields(it: Dict[str, Any], scheme: str, msg: bytes,
                  where: str = "") -> Tuple[Optional[bytes], Optional[str]]:
    """A request item's FN-DSA fields (context, prehash): refused for a
    falcon key; the context at most 255 bytes, the message the hash when
    prehash is given."""
    for field in ("context", "prehash"):
        if field in it and scheme != core.FNDSA:
            raise HttpError(400, "bad_request", f"{where}{field}: only for "
                            "fn-dsa keys (this key is falcon)")
    ctx = ph = None
    if "context" in it:
        ctx = _unb64(it, "context", where)
        if len(ctx) > core.FNDSA_CONTEXT_MAX:
            raise HttpError(400, "bad_request", f"{where}context: "
                            f"{len(ctx)} bytes, more than "
                            f"{core.FNDSA_CONTEXT_MAX}")
    if "prehash" in it:
        ph = it["prehash"]
        if not isinstance(ph, str) or ph not in core.PREHASHES:
            raise HttpError(400, "bad_request", f"{where}prehash: {ph!r} is "
                            f"not one of {', '.join(core.PREHASHES)}")
        size = core.prehash_size(ph)
        if len(msg) != size:
            raise HttpError(400, "bad_request", f"{where}message: "
                            f"{len(msg)} bytes, not a {ph} hash ({size} "
                            "bytes; with prehash the message is its hash)")
    return ctx, ph


def _scheme_format(obj: Dict[str, Any], fmt: core.SigFormat, verify: bool,
                   schemes) -> core.SigFormat:
    """The format of a request whose keys are of `schemes`: FN-DSA
    signatures have one format, padded: the default of a signing request
    with fn-dsa keys, and the only one named with them (any too for
    verification)."""
    if core.FNDSA not in schemes:
        return fmt
    if "format" not in obj and not verify:
        return core.SigFormat.PADDED
    if fmt not in (core.SigFormat.PADDED, core.SigFormat.ANY):
        raise HttpError(400, "bad_request", f"format: {fmt.name.lower()}: "
                        "fn-dsa keys have one signature format, padded")
    return fmt


def _fa_error(e: core.FalconError) -> HttpError:
    """The HTTP answer to a C library error (fa_code: the C code)."""
    if isinstance(e, core.BusyError):
        return HttpError(503, "busy", "signing queue full, retry later",
                         e.code, {"Retry-After": "1"})
    if isinstance(e, core.DeadlineError):
        return HttpError(504, "deadline", "request timed out in the queue",
                         e.code)
    if isinstance(e, core.CancelledError):
        return HttpError(503, "cancelled", "request cancelled", e.code)
    status, code = _FA_HTTP.get(e.name, (422, "falcon_error"))
    return HttpError(status, code, str(e), e.code)


# C error codes that are the service's fault rather than the request's, by
# name (FA_ERR_*): a stored private key that fails the library's key
# check, signing that gave up after its attempt bound, no randomness.
_FA_HTTP = {
    "INTERNAL": (500, "internal"),
    "RANDOM": (500, "random_source"),
    "KEY": (500, "bad_key_file"),
    "SIGN_ATTEMPTS": (500, "signing_gave_up"),
}


class _Disconnected(Exception):
    """The client went away before its request body arrived."""


def _route_path(method: str, path: str) -> str:
    """The router's pattern: a key id in a GET takes the rest of the path
    (a percent-encoded "../x" is then an unknown key, not a missing
    route)."""
    if method == "GET" and path.endswith("{key_id}"):
        return path[:-1] + ":path}"
    return path


class _Route(Route):
    """A route of the service: one path, all the methods ROUTES gives it.

    A request whose path is the route's but whose method is not gets a
    405 whose Allow lists exactly the route's methods, HEAD included where
    GET is (Starlette serves HEAD wherever it serves GET), in a fixed
    order. A route whose pattern takes the rest of the path (the key id of
    GET /v1/keys/{key_id}) leaves alone the paths another route matches:
    /v1/keys/<id>/sign belongs to the sign route, whatever the method, so
    that GET or OPTIONS there answers 405 with Allow: POST rather than
    being taken (or its 405 answered) by the public-key route."""

    def __init__(self, path: str, endpoint, methods: List[str]):
        super().__init__(path, endpoint, methods=methods)
        self.allow = ", ".join(sorted(self.methods or ()))
        self.yields_to: List[Route] = []

    def matches(self, scope):
        match, child = super().matches(scope)
        if match != Match.NONE and any(r.matches(scope)[0] != Match.NONE
                                       for r in self.yields_to):
            return Match.NONE, {}
        return match, child

    async def handle(self, scope, receive, send) -> None:
        if self.methods and scope["method"] not in self.methods:
            raise HTTPException(405, headers={"Allow": self.allow})
        await super().handle(scope, receive, send)


class SigningService:
    """Request handling: a Starlette application on a broker and a key
    directory."""

    def __init__(self, key_dir: os.PathLike, token: Optional[str],
                 broker: Broker, max_items: int = DEFAULT_MAX_ITEMS,
                 job_timeout: float = 30.0, default_logn: int = 9,
                 max_body: int = DEFAULT_MAX_BODY):
        self.keys = KeyStore(key_dir)
        self.token = token
        self.broker = broker
        self.max_items = max_items
        self.max_body = max_body
        self.job_timeout = job_timeout
        self.default_logn = default_logn
        self.started = time.time()
        self.openapi = openapi_path().read_bytes()
        self.registry = CollectorRegistry()
        self.registry.register(_BrokerCollector(self))
        self.http_requests = Counter(
            "falcon_http_requests", "HTTP responses by status code.",
            ["code"], registry=self.registry)
        self.http_in_flight = Gauge(
            "falcon_http_requests_in_flight",
            "Requests being handled now.", registry=self.registry)
        self._status_counters: Dict[int, Any] = {}
        self._server_state = None
        self.max_connections = 0
        # The batch parser (C), on the key store's registry: it knows
        # every key the store has created or loaded.
        self.front = BatchFront(max_items, self.keys.registry)
        self.on_shutdown: List[Callable[[], None]] = []
        self.starlette = Starlette(
            routes=self._routes(),
            exception_handlers={HTTPException: self._http_exception,
                                Exception: self._internal_error},
            lifespan=self._lifespan)
        # The batch routes' POSTs skip Starlette's routing, middleware and
        # request objects: the ASGI messages go straight to the handler
        # (per request, not per item, but a batch of 64 verifications
        # costs about as much CPU as the request handling).
        self._direct = {"/v1/sign/batch": "sign_batch",
                        "/v1/verify/batch": "verify_batch"}

    def _routes(self) -> List[Route]:
        """The Starlette routes of ROUTES: one per path, with every method
        ROUTES gives that path (one handler per method)."""
        by_path: Dict[str, Dict[str, str]] = {}
        for method, path, name, _, _, _ in ROUTES:
            by_path.setdefault(path, {})[method] = name
        routes = []
        for path, handlers in by_path.items():
            if len(handlers) == 1:
                endpoint = self._endpoint(next(iter(handlers.values())))
            else:
                endpoint = self._dispatch({m: self._endpoint(n)
                                           for m, n in handlers.items()})
            pattern = _route_path("GET" if "GET" in handlers else "", path)
            routes.append(_Route(pattern, endpoint, list(handlers)))
        rest = [r for r in routes if ":path}" in r.path]
        for r in rest:
            r.yields_to = [o for o in routes if o not in rest]
        return routes

    @staticmethod
    def _dispatch(endpoints: Dict[str, Callable]):
        """One endpoint for a path served by several methods."""
        async def endpoint(request: Request) -> Response:
            method = "GET" if request.method == "HEAD" else request.method
            return await endpoints[method](request)
        return endpoint

    def limit_connections(self, server_state, max_connections: int) -> None:
        """Answer 503 (JSON error too_many_connections, connection closed)
        to requests arriving while more than max_connections connections
        or requests are open (uvicorn's server_state; 0: no bound). The
        application does it rather than uvicorn's limit_concurrency,
        whose answer is plain text."""
        self._server_state = server_state if max_connections > 0 else None
        self.max_connections = max_connections

    async def app(self, scope, receive, send) -> None:
        """The ASGI application."""
        if scope["type"] == "http":
            st = self._server_state
            if st is not None and (
                    len(st.connections) > self.max_connections
                    or len(st.tasks) > self.max_connections):
                await self._too_many_connections(scope, receive, send)
                return
            if scope["method"] == "POST":
                name = self._direct.get(scope["path"])
                if name is not None:
                    await self._direct_request(name, scope, receive, send)
                    return
        await self.starlette(scope, receive, send)

    async def _too_many_connections(self, scope, receive, send) -> None:
        self._count(503)
        await HttpError(503, "too_many_connections",
                        f"over the limit of {self.max_connections} open "
                        "connections, retry later",
                        headers={"Connection": "close",
                                 "Retry-After": "1"}).response()(
            scope, receive, send)

    async def _direct_request(self, name: str, scope, receive,
                              send) -> None:
        headers = Headers(scope=scope)
        self.http_in_flight.inc()
        try:
            body = await self._read_body(headers, receive)
            resp = await getattr(self, name)(headers, body)
        except HttpError as e:
            resp = e.response()
        except core.FalconError as e:
            resp = _fa_error(e).response()
        except _Disconnected:
            return
        except Exception as e:
            resp = HttpError(500, "internal",
                             f"internal error: {type(e).__name__}").response()
        finally:
            self.http_in_flight.dec()
        if isinstance(resp, bytes):   # a JSON answer, 200
            self._count(200)
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length",
                                     b"%d" % len(resp))]})
            await send({"type": "http.response.body", "body": resp})
            return
        self._count(resp.status_code)
        await resp(scope, receive, send)

    def _count(self, status: int) -> None:
        c = self._status_counters.get(status)
        if c is None:
            c = self._status_counters[status] = \
                self.http_requests.labels(str(status))
        c.inc()

    # -- plumbing -------------------------------------------------------------

    def _endpoint(self, name: str):
        # The handler is looked up per request (tests replace one).
        direct = name in ("sign_batch", "verify_batch")

        async def endpoint(request: Request) -> Response:
            self.http_in_flight.inc()
            try:
                if direct:
                    body = await self._read_body(request.headers,
                                                 request.receive)
                    resp = await getattr(self, name)(request.headers, body)
                else:
                    resp = await getattr(self, name)(request)
            except HttpError as e:
                resp = e.response()
            except core.FalconError as e:
                resp = _fa_error(e).response()
            finally:
                self.http_in_flight.dec()
            if isinstance(resp, bytes):
                resp = Response(resp, media_type="application/json")
            self._count(resp.status_code)
            return resp
        endpoint.__name__ = name
        return endpoint

    async def _http_exception(self, request: Request,
                              exc: HTTPException) -> Response:
        """404 and 405 from the router, as JSON errors."""
        if exc.status_code == 405:
            e = HttpError(405, "method_not_allowed",
                          f"{request.method} not allowed on "
                          f"{request.url.path}", headers=exc.headers)
        elif exc.status_code == 404:
            e = HttpError(404, "not_found", f"no route {request.url.path}")
        else:
            e = HttpError(exc.status_code, "http_error", str(exc.detail),
                          headers=exc.headers)
        self.http_requests.labels(str(e.status)).inc()
        return e.response()

    async def _internal_error(self, request: Request,
                              exc: Exception) -> Response:
        self.http_requests.labels("500").inc()
        return HttpError(500, "internal",
                         f"internal error: {type(exc).__name__}").response()

    def _lifespan(self, app):
        service = self

        class Lifespan:
            async def __aenter__(self):
                return None

            async def __aexit__(self, *exc):
                for fn in service.on_shutdown:
                    fn()
                return False
        return Lifespan()

    def _auth(self, headers: Headers) -> None:
        if self.token is None:
            raise HttpError(403, "forbidden",
                            "signing is disabled: no --token-file configured")
        got = headers.get("authorization", "")
        if not got.startswith("Bearer ") or not hmac.compare_digest(
                got[7:].strip().encode(), self.token.encode()):
            raise HttpError(401, "unauthorized",
                            "missing or wrong bearer token",
                            headers={"WWW-Authenticate": "Bearer"})

    async def _read_body(self, headers: Headers, receive) -> bytes:
        """The request body from the ASGI messages, at most max_body bytes
        (413 and the connection closed past it), within READ_TIMEOUT_S."""
        too_large = HttpError(413, "body_too_large",
                              f"body over the limit of {self.max_body} "
                              "bytes", headers={"Connection": "close"})
        cl = headers.get("content-length")
        if cl is not None and cl.isdigit() and int(cl) > self.max_body:
            too_large.message = (f"body of {cl} bytes over the limit of "
                                 f"{self.max_body}")
            raise too_large
        chunks, size = [], 0
        try:
            async with _within(READ_TIMEOUT_S):
                while True:
                    msg = await receive()
                    if msg["type"] == "http.disconnect":
                        raise _Disconnected
                    chunk = msg.get("body", b"")
                    size += len(chunk)
                    if size > self.max_body:
                        raise too_large
                    if chunk:
                        chunks.append(chunk)
                    if not msg.get("more_body", False):
                        break
        except asyncio.TimeoutError:
            raise HttpError(400, "bad_request",
                            "request body not received in time",
                            headers={"Connection": "close"})
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    @staticmethod
    def _json_type(headers: Headers) -> None:
        ctype = headers.get("content-type", "application/json")
        if "json" not in ctype.split(";")[0]:
            raise HttpError(415, "unsupported_media_type",
                            "body must be application/json")

    async def _json(self, request: Request,
                    allow_empty: bool = False) -> Dict[str, Any]:
        body = await self._read_body(request.headers, request.receive)
        if not body and allow_empty:
            return {}
        self._json_type(request.headers)
        return self._parse(body)

    @staticmethod
    def _parse(body: bytes) -> Dict[str, Any]:
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

    @staticmethod
    def _ok(obj: Any, status: int = 200) -> Response:
        return Response(json.dumps(obj, separators=(",", ":")).encode(),
                        status, media_type="application/json")

    # -- handlers ---------------------------------------------------------------

    async def health(self, request: Request) -> Response:
        return self._ok({
            "status": "ok",
            "backend": core.default_backend().name,
            "threads": self.broker.threads,
            "signing_enabled": self.token is not None,
            "uptime_s": round(time.time() - self.started, 3)})

    async def get_openapi(self, request: Request) -> Response:
        return Response(self.openapi, media_type="application/json")

    async def metrics(self, request: Request) -> Response:
        return Response(generate_latest(self.registry),
                        headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def create_key(self, request: Request) -> Response:
        self._auth(request.headers)
        obj = await self._json(request, allow_empty=True)
        scheme = _scheme_value(obj.get("scheme", core.FALCON))
        logn = obj.get("logn", self.default_logn)
        if scheme == core.FNDSA:
            if not isinstance(logn, int) or isinstance(logn, bool) \
                    or not 2 <= logn <= 10:
                raise HttpError(400, "bad_request",
                                "logn: integer in 2..10 for fn-dsa keys "
                                "(9: FN-DSA-512, 10: FN-DSA-1024)")
        elif not isinstance(logn, int) or isinstance(logn, bool) \
                or not 1 <= logn <= 10:
            raise HttpError(400, "bad_request",
                            "logn: integer in 1..10 (9: Falcon-512, "
                            "10: Falcon-1024)")
        loop = asyncio.get_running_loop()
        rec = await loop.run_in_executor(None, self.keys.create, logn,
                                         scheme)
        if scheme == core.FALCON:     # the C broker's key cache
            self.broker.preload_key(rec.secret_key)
        return self._ok(self._public(rec), 201)

    @staticmethod
    def _public(rec) -> Dict[str, Any]:
        return {"key_id": rec.key_id, "logn": rec.logn,
                "scheme": rec.scheme, "public_key": _b64(rec.public_key)}

    async def get_key(self, request: Request) -> Response:
        rec = self._key(request.path_params["key_id"])
        return self._ok(self._public(rec))

    async def list_keys(self, request: Request) -> Response:
        """Every stored key, by key id, with its scheme."""
        self._auth(request.headers)
        loop = asyncio.get_running_loop()
        try:
            recs = await loop.run_in_executor(
                None, lambda: [self.keys.get(k) for k in self.keys.ids()])
        except core.FalconError as e:
            raise HttpError(500, "bad_key_file", str(e), e.code)
        return self._ok({"keys": [self._public(r) for r in recs
                                  if r is not None]})

    async def sign_one(self, request: Request) -> Response:
        self._auth(request.headers)
        obj = await self._json(request)
        rec = self._key(request.path_params["key_id"])
        msg = _unb64(obj, "message")
        fmt = _fmt(obj, verify=False)
        ctx, ph = _fndsa_fields(obj, rec.scheme, msg)
        fmt = _scheme_format(obj, fmt, False, (rec.scheme,))
        item = SignItem(rec.secret_key, msg, rec.scheme, ctx, ph,
                        ph is not None)
        sigs = await self.broker.sign_items_async([item], fmt,
                                                  self.job_timeout)
        return self._ok({"key_id": rec.key_id, "format": fmt.name.lower(),
                         "signature": _b64(sigs[0])})

    async def sign_batch(self, headers: Headers,
                         body: bytes) -> Union[bytes, Response]:
        """The answer: JSON bytes (200) from the batch parser (C), or, for
        a body it leaves, the strict Python fallback's Response."""
        self._auth(headers)
        self._json_type(headers)
        out = await self.broker.run_json_batch(self.front, OP_SIGN, body,
                                               self.job_timeout)
        if out is not None:
            return out
        return await self._strict_fallback_sign_batch(body)

    async def _strict_fallback_sign_batch(self, body: bytes) -> Response:
        """The strict Python fallback of the batch parser: the json
        module reads the body, every field is checked and a bad one named
        (400/404/413), items of either scheme go to the broker."""
        obj = self._parse(body)
        fmt = _fmt(obj, verify=False)
        items = []
        for i, it in enumerate(self._items(obj)):
            where = f"items[{i}]."
            rec = self._key(it.get("key_id"), where)
            msg = _unb64(it, "message", where)
            ctx, ph = _fndsa_fields(it, rec.scheme, msg, where)
            items.append(SignItem(rec.secret_key, msg, rec.scheme, ctx, ph,
                                  ph is not None))
        fmt = _scheme_format(obj, fmt, False, {it.scheme for it in items})
        sigs = await self.broker.sign_items_async(items, fmt,
                                                  self.job_timeout)
        return self._ok({"format": fmt.name.lower(),
                         "signatures": [_b64(s) for s in sigs]})

    def _verify_item(self, it: Dict[str, Any], where: str = "",
                     memo: Optional[Dict[Any, Tuple[bytes, str]]] = None
                     ) -> VerifyItem:
        """The VerifyItem of a request item (the scheme of its key id, or
        its "scheme" for an inline public key); `memo` caches key lookups
        and checks within one request."""
        memo = {} if memo is None else memo
        if "scheme" in it:
            _scheme_value(it["scheme"], where)
        if "key_id" in it:
            kid = it["key_id"]
            got = memo.get(kid) if isinstance(kid, str) else None
            if got is None:
                rec = self._key(kid, where)
                got = memo[kid] = (rec.public_key, rec.scheme)
            pk, scheme = got
            if it.get("scheme", scheme) != scheme:
                raise HttpError(400, "bad_request", f"{where}scheme: "
                                f"{it['scheme']!r}, but key {kid} is "
                                f"{scheme}")
        else:
            enc = it.get("public_key")
            scheme = it.get("scheme", core.FALCON)
            key = ("pk", enc, scheme)
            got = memo.get(key) if isinstance(enc, str) else None
            if got is None:
                pk = _unb64(it, "public_key", where)
                _check_public_key(pk, where, scheme)
                got = memo[key] = (pk, scheme)
            pk = got[0]
        msg = _unb64(it, "message", where)
        sig = _unb64(it, "signature", where)
        _check_signature(sig, pk[0] & 0x0F, where, scheme)
        ctx, ph = _fndsa_fields(it, scheme, msg, where)
        return VerifyItem(pk, msg, sig, scheme, ctx, ph, ph is not None)

    async def verify_one(self, request: Request) -> Response:
        obj = await self._json(request)
        fmt = _fmt(obj, verify=True)
        item = self._verify_item(obj)
        fmt = _scheme_format(obj, fmt, True, (item.scheme,))
        st = (await self.broker.verify_items_status_async(
            [item], fmt, self.job_timeout))[0]
        out: Dict[str, Any] = {"valid": st == 0}
        if st != 0:
            out["reason"] = core.ERROR_NAMES.get(st, str(st)).lower()
        return self._ok(out)

    async def verify_batch(self, headers: Headers,
                           body: bytes) -> Union[bytes, Response]:
        """As sign_batch."""
        self._json_type(headers)
        out = await self.broker.run_json_batch(self.front, OP_VERIFY, body,
                                               self.job_timeout)
        if out is not None:
            return out
        return await self._strict_fallback_verify_batch(body)

    async def _strict_fallback_verify_batch(self, body: bytes) -> Response:
        """As _strict_fallback_sign_batch."""
        obj = self._parse(body)
        fmt = _fmt(obj, verify=True)
        memo: Dict[Any, Tuple[bytes, str]] = {}
        items = [self._verify_item(it, f"items[{i}].", memo)
                 for i, it in enumerate(self._items(obj))]
        fmt = _scheme_format(obj, fmt, True, {it.scheme for it in items})
        sts = await self.broker.verify_items_status_async(items, fmt,
                                                          self.job_timeout)
        ok = [s == 0 for s in sts]
        return self._ok({"results": ok, "valid": sum(ok)})


class _BrokerCollector:
    """Prometheus collector: the broker's counters read at scrape time."""

    def __init__(self, service: SigningService):
        self.service = service

    def collect(self):
        m = self.service.broker.metrics()
        g = "falcon_broker_"
        for field, help_ in (
                ("queue_depth", "Items waiting in the queue."),
                ("queue_capacity", "Queue bound in items."),
                ("queue_bytes", "Bytes held by unfinished jobs."),
                ("in_flight", "Items being processed."),
                ("threads", "Broker worker threads."),
                ("cache_bytes", "Key cache bytes in use."),
                ("cache_entries", "Keys in the cache.")):
            yield GaugeMetricFamily(g + field, help_, value=m[field])
        for field, help_ in (
                ("jobs_submitted", "Jobs accepted."),
                ("jobs_completed", "Jobs completed."),
                ("items_submitted", "Items accepted."),
                ("items_completed", "Items processed."),
                ("items_failed", "Items processed with an error result."),
                ("items_cancelled", "Items cancelled before running."),
                ("items_expired", "Items whose deadline passed in the "
                                  "queue."),
                ("rejected_busy", "Submissions refused: queue full."),
                ("cache_hits", "Key cache hits."),
                ("cache_misses", "Key cache misses."),
                ("cache_evictions", "Key cache evictions.")):
            yield CounterMetricFamily(g + field, help_, value=m[field])
        # Batch sizes: bucket k counts batches of up to 2^k items.
        cum, buckets = 0, []
        hist = m["batch_hist"]
        for k, c in enumerate(hist):
            cum += c
            buckets.append(("+Inf" if k == len(hist) - 1 else str(1 << k),
                            cum))
        yield HistogramMetricFamily(g + "batch_size",
                                    "Items per dispatched batch.",
                                    buckets=buckets,
                                    sum_value=m["items_completed"])
        lat = GaugeMetricFamily(g + "job_latency_seconds",
                                "Job latency quantiles over the last 8192 "
                                "jobs.", labels=["quantile"])
        for q, p in (("0.5", "p50"), ("0.9", "p90"), ("0.99", "p99"),
                     ("1", "max")):
            lat.add_metric([q], m[f"latency_{p}_us"] / 1e6)
        yield lat
        up = max(m["uptime_us"], 1) / 1e6
        items = CounterMetricFamily(g + "backend_items",
                                    "Items processed per backend and "
                                    "operation.", labels=["backend", "op"])
        rate = GaugeMetricFamily(g + "backend_items_per_second",
                                 "Average throughput per backend since "
                                 "start.", labels=["backend", "op"])
        busy = CounterMetricFamily(g + "backend_busy_seconds",
                                   "Worker time spent in batches per "
                                   "backend.", labels=["backend"])
        for b in m["backends"]:
            for op in ("sign", "verify"):
                n = b[f"{op}_items"]
                items.add_metric([b["name"], op], n)
                rate.add_metric([b["name"], op], round(n / up, 3))
            busy.add_metric([b["name"]], b["busy_us"] / 1e6)
        yield items
        yield rate
        yield busy
        yield GaugeMetricFamily(g + "uptime_seconds", "Broker uptime.",
                                value=up)
        yield GaugeMetricFamily("falcon_keys", "Keys in the key directory.",
                                value=len(self.service.keys.ids()))


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


def listen_socket(host: str, port: int) -> socket.socket:
    """A bound, listening TCP socket (port 0: any free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=2048)


def uvicorn_config(app, tls_cert: Optional[str] = None,
                   tls_key: Optional[str] = None,
                   shutdown_timeout: float = SHUTDOWN_TIMEOUT_S
                   ) -> uvicorn.Config:
    if (tls_cert is None) != (tls_key is None):
        raise SystemExit("--tls-cert and --tls-key go together")
    for what, path in (("--tls-cert", tls_cert), ("--tls-key", tls_key)):
        if path is not None and not Path(path).is_file():
            raise SystemExit(f"{what} {path}: no such file")
    # The connection limit is the application's (limit_connections).
    return uvicorn.Config(
        app, interface="asgi3", log_level="warning", access_log=False,
        lifespan="on", proxy_headers=False,
        timeout_keep_alive=IDLE_TIMEOUT_S,
        timeout_graceful_shutdown=shutdown_timeout,
        ssl_certfile=tls_cert, ssl_keyfile=tls_key, server_header=False)


def _run(coro, config: uvicorn.Config) -> None:
    """Run `coro` on a new event loop of uvicorn's choice (uvloop when
    installed)."""
    factory = None
    if hasattr(config, "get_loop_factory"):
        factory = config.get_loop_factory()
    else:  # older uvicorn: sets the event loop policy instead
        config.setup_event_loop()
    if factory is None:
        asyncio.run(coro)
    elif sys.version_info >= (3, 11):
        with asyncio.Runner(loop_factory=factory) as runner:
            runner.run(coro)
    else:
        loop = factory()
        try:
            loop.run_until_complete(coro)
        finally:
            loop.close()


class RunningServer:
    """A server on its own event loop thread (tests, embedding)."""

    def __init__(self, key_dir: os.PathLike, token: Optional[str],
                 host: str = "127.0.0.1", port: int = 0, threads: int = 0,
                 max_body: int = DEFAULT_MAX_BODY,
                 max_items: int = DEFAULT_MAX_ITEMS,
                 queue_capacity: int = 0, backend: Optional[str] = None,
                 job_timeout: float = 30.0,
                 max_connections: int = DEFAULT_MAX_CONNECTIONS,
                 tls_cert: Optional[str] = None,
                 tls_key: Optional[str] = None):
        self.broker = Broker(threads=threads, queue_capacity=queue_capacity,
                             backend=backend)
        self.service = SigningService(key_dir, token, self.broker, max_items,
                                      job_timeout, max_body=max_body)
        self.sock = listen_socket(host, port)
        self.host = host
        self.port = self.sock.getsockname()[1]
        self.scheme = "https" if tls_cert else "http"
        self.server = uvicorn.Server(uvicorn_config(
            self.service.app, tls_cert, tls_key))
        self.service.limit_connections(self.server.server_state,
                                       max_connections)
        started = threading.Event()
        self._error: Optional[BaseException] = None

        async def serve() -> None:
            task = asyncio.ensure_future(self.server.serve([self.sock]))
            while not self.server.started and not task.done():
                await asyncio.sleep(0.01)
            started.set()
            await task

        def run() -> None:
            try:
                _run(serve(), self.server.config)
            except BaseException as e:  # reported to the constructor
                self._error = e
                started.set()

        self.thread = threading.Thread(target=run, daemon=True,
                                       name="falcon-accel-server")
        self.thread.start()
        started.wait()
        if self._error is not None or not self.thread.is_alive():
            self.broker.close()
            raise self._error or RuntimeError("server did not start")

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}"

    def stop(self) -> None:
        if self.thread.is_alive():
            self.server.should_exit = True
            self.thread.join(60)
        self.sock.close()
        self.broker.close()

    def __enter__(self) -> "RunningServer":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


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
    ap.add_argument("--tls-cert", default=None,
                    help="PEM certificate (chain) file: serve HTTPS")
    ap.add_argument("--tls-key", default=None,
                    help="PEM private key file of --tls-cert")
    ap.add_argument("--max-connections", type=int,
                    default=DEFAULT_MAX_CONNECTIONS,
                    help="open connections (and requests) served at once; "
                         "over it requests get a 503 JSON error (0: no "
                         f"bound; default {DEFAULT_MAX_CONNECTIONS})")
    ap.add_argument("--shutdown-timeout", type=float,
                    default=SHUTDOWN_TIMEOUT_S,
                    help="on SIGTERM/SIGINT, seconds in-flight requests "
                         f"get to finish (default {SHUTDOWN_TIMEOUT_S})")
    args = ap.parse_args(argv)
    if args.backend:
        core.backend(args.backend)  # fail early if unavailable
    config = uvicorn_config(None, args.tls_cert, args.tls_key,
                            args.shutdown_timeout)
    token = read_token(args.token_file)
    broker = Broker(threads=args.threads, queue_capacity=args.queue_capacity,
                    backend=args.backend)
    service = SigningService(args.key_dir, token, broker, args.max_items,
                             args.job_timeout, args.default_logn,
                             args.max_body)
    service.on_shutdown.append(broker.close)
    config.app = service.app
    for kid in service.keys.ids():     # into the key registry
        rec = service.keys.get(kid)
        if rec is not None and rec.scheme == core.FALCON:
            broker.preload_key(rec.secret_key)
    sock = listen_socket(args.host, args.port)
    port = sock.getsockname()[1]
    scheme = "https" if args.tls_cert else "http"
    print(f"falcon_accel.server: listening on {scheme}://{args.host}:{port} "
          f"(backend {args.backend or core.default_backend().name}, "
          f"{broker.threads} threads, keys in {args.key_dir})",
          file=sys.stderr, flush=True)
    server = uvicorn.Server(config)
    service.limit_connections(server.server_state, args.max_connections)

    async def serve() -> None:
        task = asyncio.ensure_future(server.serve([sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.01)
        if server.started and args.port_file:
            tmp = Path(str(args.port_file) + ".tmp")
            tmp.write_text(f"{port}\n")
            os.rename(tmp, args.port_file)
        await task

    # uvicorn re-raises the signal it shut down on, to the handler found
    # at start: make that one a no-op so the exit status is 0.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: None)
    _run(serve(), config)
    broker.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
