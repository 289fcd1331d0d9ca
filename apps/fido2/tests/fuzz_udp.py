#!/usr/bin/env python3
"""CTAPHID/UDP fuzz run against falcon-accel-fido2 (apps/fido2/tests/run_fuzz_udp.sh
runs it on an ASan+UBSan build).

Starts the daemon (own state directory in a temporary directory, free ports,
--user-presence auto, stdin /dev/null, stderr to a file), then sends a
seeded, deterministic mix of reports (one UDP datagram each):

- random datagrams of 0..100 bytes and random 64-byte reports;
- well-formed INIT on broadcast (its reply's channel joins the known ones)
  and malformed INITs (wrong length, on unallocated channels, channel 0);
- init packets of random commands and lengths on known channels, random
  channels and broadcast; lone continuation packets;
- messages split over continuation packets with faults: wrong, repeated or
  skipped sequence numbers, a new init packet, CANCEL or INIT in the middle,
  or left unfinished (the daemon's message timeout ends them);
- CTAPHID_CBOR with random bodies, byte-mutated and structurally mutated
  CTAP2 requests (makeCredential, getAssertion, commands without
  parameters given some; never Reset: mutated makeCredential requests
  offer only algorithms the key does not support, so none of them makes a
  key, and mutated getAssertion requests name rpIds without credentials);
- CANCEL, interleaved channels (a message on one channel while others send
  init, continuation, INIT and CANCEL packets);
- checked transactions on a fresh channel: PINGs up to the maximum size
  (7609 bytes: 128 continuation packets) echoed, getInfo, selection, one
  Reset in the second half, and a bounded number of valid makeCredential
  (--keygens / FIDO2_FUZZ_KEYGENS, default 3) and getAssertion requests
  (twice that), whose answers must be right.

Every 64 reports an INIT on broadcast is a barrier (its answer means the
daemon has read everything sent before); every --check-every reports and at
the end the daemon must still answer: INIT on broadcast echoes the nonce and
a PING on the new channel echoes its payload. At the end SIGTERM must give
exit status 0 and the stderr file must hold no sanitizer report.

Usage: fuzz_udp.py --daemon PATH [--reports N] [--seed S] [--check-every N]
                   [--keygens N] [--keep] [-v]
Environment: FIDO2_FUZZ_REPORTS, FIDO2_FUZZ_SEED, FIDO2_FUZZ_KEYGENS.
Last line: "fuzz_udp: 1 passed, 0 failed" (or "0 passed, 1 failed").
"""
from __future__ import annotations

import argparse
import os
import random
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BROADCAST = 0xFFFFFFFF
PING, MSG, LOCK, INIT, WINK, CBOR, CANCEL = 0x81, 0x83, 0x84, 0x86, 0x88, 0x90, 0x91
KEEPALIVE, ERROR = 0xBB, 0xBF
ERR_CHANNEL_BUSY = 0x06
INIT_DATA, CONT_DATA, MAX_MSG = 57, 59, 7609
# apps/fido2/core/fido2_cose.h: FN-DSA, and round-3 Falcon (private use)
ALG_FNDSA512, ALG_FNDSA1024 = -54, -55
ALG_FALCON512_R3 = -65537
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "runtime error:", "LeakSanitizer")
BARRIER_EVERY = 64


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------
# A small CBOR encoder (CTAP2 canonical by default; mutations can break it).

class Text:
    """A text string given as raw bytes (may be invalid UTF-8)."""

    def __init__(self, raw: bytes):
        self.raw = raw


class Raw:
    """Bytes inserted as they are (an item of any form)."""

    def __init__(self, raw: bytes):
        self.raw = raw


class Pairs:
    """A map as a list of (key, value), encoded in the given order."""

    def __init__(self, pairs):
        self.pairs = list(pairs)


def _head(major: int, n: int, wide: int = 0) -> bytes:
    """Shortest head, or with wide = 1..4 a forced width (1, 2, 4, 8 bytes)."""
    if wide == 0:
        if n < 24:
            return bytes([major << 5 | n])
        wide = 1 if n < 0x100 else 2 if n < 0x10000 else 3 if n < 1 << 32 else 4
    size = 1 << (wide - 1)
    return bytes([major << 5 | (23 + wide)]) + (n & ((1 << (8 * size)) - 1)).to_bytes(size, "big")


def cbor(v) -> bytes:
    if isinstance(v, Raw):
        return v.raw
    if v is False:
        return b"\xf4"
    if v is True:
        return b"\xf5"
    if v is None:
        return b"\xf6"
    if isinstance(v, int):
        return _head(0, v) if v >= 0 else _head(1, -1 - v)
    if isinstance(v, (bytes, bytearray)):
        return _head(2, len(v)) + bytes(v)
    if isinstance(v, str):
        b = v.encode()
        return _head(3, len(b)) + b
    if isinstance(v, Text):
        return _head(3, len(v.raw)) + v.raw
    if isinstance(v, (list, tuple)):
        return _head(4, len(v)) + b"".join(cbor(x) for x in v)
    if isinstance(v, Pairs):
        return _head(5, len(v.pairs)) + b"".join(cbor(k) + cbor(x) for k, x in v.pairs)
    if isinstance(v, dict):
        items = [(cbor(k), cbor(x)) for k, x in v.items()]
        items.sort(key=lambda kv: (kv[0][0] >> 5, len(kv[0]), kv[0]))
        return _head(5, len(items)) + b"".join(k + x for k, x in items)
    raise TypeError(type(v))


# ---------------------------------------------------------------------------

def free_udp_port() -> int:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def cid_bytes(cid: int) -> bytes:
    return struct.pack(">I", cid & 0xFFFFFFFF)


def init_pkt(cid: int, cmd: int, bcnt: int, data: bytes = b"") -> bytes:
    return (cid_bytes(cid) + bytes([cmd & 0xFF]) + struct.pack(">H", bcnt & 0xFFFF)
            + data[:INIT_DATA]).ljust(64, b"\0")


def cont_pkt(cid: int, seq: int, data: bytes = b"") -> bytes:
    return (cid_bytes(cid) + bytes([seq & 0xFF]) + data[:CONT_DATA]).ljust(64, b"\0")


def frame(cid: int, cmd: int, payload: bytes, bcnt: int = None) -> list:
    """The reports of one message (bcnt: the length announced)."""
    pk = [init_pkt(cid, cmd, len(payload) if bcnt is None else bcnt, payload[:INIT_DATA])]
    off, seq = INIT_DATA, 0
    while off < len(payload):
        pk.append(cont_pkt(cid, seq, payload[off:off + CONT_DATA]))
        off += CONT_DATA
        seq += 1
    return pk


class Fuzzer:
    def __init__(self, exe: str, seed: int, reports: int, check_every: int,
                 keygens: int, workdir: Path, verbose: bool):
        self.exe, self.seed, self.target = exe, seed, reports
        self.check_every, self.keygen_budget = check_every, keygens
        self.workdir, self.verbose = workdir, verbose
        self.rnd = random.Random(seed)
        # Nonces and PING payloads of the checks: their own stream, so the
        # fuzz mix depends on the seed only.
        self.crnd = random.Random(seed ^ 0x5A5A5A5A)
        self.log = workdir / "daemon.stderr"
        self.proc = None
        self.sock = None
        self.known = []          # channels the daemon allocated to us
        self.sent = 0            # reports sent by the fuzz mix
        self.replies = 0
        self.checks = 0
        self.keygens = 0
        self.assertions = 0
        self.resets = 0
        self.stats = {}
        self.answers = {}        # kinds of answers read (first packets)
        self.cdh = bytes(range(32))
        self.cred = None         # (rpId, credential id) of the valid makeCredential

    # -- daemon -------------------------------------------------------------
    def start(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        except OSError:
            pass
        self.sock.bind(("127.0.0.1", 0))
        self.sock.setblocking(False)
        reply_port = self.sock.getsockname()[1]
        for attempt in range(5):
            port = free_udp_port()
            self.dest = ("127.0.0.1", port)
            err = open(self.log, "ab")
            self.proc = subprocess.Popen(
                [self.exe, "--state", str(self.workdir / "state"), "--port", str(port),
                 "--reply-port", str(reply_port), "--user-presence", "auto"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
            err.close()
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                if "ready on" in self.log.read_text(errors="replace"):
                    return
                if self.proc.poll() is not None:
                    break
                time.sleep(0.02)
            if self.proc.poll() is None:
                raise Failure("the daemon did not report 'ready on' within 60 s")
            if "bind" not in self.log.read_text(errors="replace"):
                raise Failure("the daemon exited at start-up, status %s" % self.proc.returncode)
        raise Failure("the daemon could not bind a free port")

    def alive(self) -> None:
        if self.proc.poll() is not None:
            raise Failure("the daemon died: exit status %s" % self.proc.returncode)

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise Failure("the daemon did not exit within 60 s of SIGTERM")

    # -- transport ----------------------------------------------------------
    def send(self, data: bytes, counted: bool = True) -> None:
        while True:
            try:
                self.sock.sendto(data, self.dest)
                break
            except BlockingIOError:
                select.select([], [self.sock], [], 0.1)
        if counted:
            self.sent += 1
            if self.sent % 16 == 0:
                self.drain()

    def drain(self) -> None:
        while True:
            try:
                r = self.sock.recv(128)
            except BlockingIOError:
                return
            self.note_reply(r)

    def note_reply(self, r: bytes) -> None:
        self.replies += 1
        if len(r) != 64:
            raise Failure("a %d-byte reply (reports are 64 bytes)" % len(r))
        if r[4] & 0x80:
            if r[4] in (ERROR, KEEPALIVE) and r[5:7] != b"\0\1":
                raise Failure("%s reply with a length of %d (1 expected)" % (
                    "ERROR" if r[4] == ERROR else "KEEPALIVE", struct.unpack(">H", r[5:7])[0]))
            what = {ERROR: "hid-error-%02x" % r[7], CBOR: "ctap-status-%02x" % r[7]}.get(
                r[4], "cmd-%02x" % r[4])
            self.answers[what] = self.answers.get(what, 0) + 1

    def recv(self, deadline: float) -> bytes:
        while True:
            try:
                r = self.sock.recv(128)
                self.note_reply(r)
                return r
            except BlockingIOError:
                pass
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.alive()
            select.select([self.sock], [], [], min(left, 0.2))

    def read_msg(self, cid: int, deadline: float):
        """The next message on cid (KEEPALIVE skipped): (cmd, payload)."""
        while True:
            r = self.recv(deadline)
            if r is None:
                return None
            if struct.unpack(">I", r[:4])[0] != cid or not r[4] & 0x80:
                continue
            cmd, bcnt = r[4], struct.unpack(">H", r[5:7])[0]
            if cmd == KEEPALIVE:
                continue
            data = r[7:7 + min(bcnt, INIT_DATA)]
            seq = 0
            while len(data) < bcnt:
                r = self.recv(deadline)
                if r is None:
                    raise Failure("reply on channel %08x cut short: %d of %d bytes"
                                  % (cid, len(data), bcnt))
                if struct.unpack(">I", r[:4])[0] != cid:
                    continue
                if r[4] != seq:
                    raise Failure("reply on channel %08x: continuation %d where %d was due"
                                  % (cid, r[4], seq))
                data += r[5:5 + min(bcnt - len(data), CONT_DATA)]
                seq += 1
            return cmd, data

    def init_channel(self, timeout: float = 60.0) -> int:
        """INIT on broadcast; the reply must echo the nonce. The new channel."""
        nonce = self.crnd.randbytes(8)
        self.send(init_pkt(BROADCAST, INIT, 8, nonce), counted=False)
        deadline = time.monotonic() + timeout
        while True:
            m = self.read_msg(BROADCAST, deadline)
            if m is None:
                raise Failure("no answer to INIT on broadcast within %.0f s (hang?)" % timeout)
            cmd, data = m
            if cmd == INIT and data[:8] == nonce:
                if len(data) < 17:
                    raise Failure("INIT reply of %d bytes" % len(data))
                cid = struct.unpack(">I", data[8:12])[0]
                if cid in (0, BROADCAST):
                    raise Failure("INIT allocated channel %08x" % cid)
                return cid

    def transact(self, cid: int, cmd: int, payload: bytes, timeout: float = 60.0):
        """A message and its answer on cid; a CHANNEL_BUSY (a fuzz message
        left unfinished on another channel) is retried until it times out."""
        deadline = time.monotonic() + timeout
        while True:
            for p in frame(cid, cmd, payload):
                self.send(p, counted=False)
            m = self.read_msg(cid, deadline)
            if m is None:
                raise Failure("no answer to command %02x on channel %08x within %.0f s"
                              % (cmd, cid, timeout))
            if m[0] == ERROR and m[1][:1] == bytes([ERR_CHANNEL_BUSY]):
                time.sleep(0.05)
                continue
            return m

    # -- checks -------------------------------------------------------------
    def barrier(self) -> None:
        self.drain()
        self.init_channel()

    def check(self, ping_len: int = None) -> None:
        self.alive()
        cid = self.init_channel()
        n = ping_len if ping_len is not None else self.crnd.choice(
            [0, 1, 56, 57, 58, 116, 117, 500, self.crnd.randrange(MAX_MSG + 1)])
        payload = self.crnd.randbytes(n)
        cmd, data = self.transact(cid, PING, payload)
        if cmd != PING or data != payload:
            raise Failure("PING of %d bytes on channel %08x: answer %02x of %d bytes%s"
                          % (n, cid, cmd, len(data), " (differs)" if cmd == PING else ""))
        self.checks += 1

    # -- the fuzz mix ---------------------------------------------------------
    def pick_cid(self) -> int:
        r = self.rnd.random()
        if self.known and r < 0.5:
            return self.rnd.choice(self.known)
        if r < 0.6:
            return BROADCAST
        if r < 0.65:
            return 0
        if r < 0.8:
            return self.rnd.randrange(1, 64)       # small values (sequential allocators)
        if self.known and r < 0.85:
            return self.rnd.choice(self.known) ^ (1 << self.rnd.randrange(32))
        return self.rnd.getrandbits(32)

    def pick_bcnt(self) -> int:
        return self.rnd.choice([0, 1, 8, 56, 57, 58, 59, 116, 117, 118, 1000,
                                MAX_MSG - 1, MAX_MSG, MAX_MSG + 1, 0x7fff, 0xffff,
                                self.rnd.randrange(0x10000), self.rnd.randrange(200)])

    def a_random_len(self) -> None:
        self.send(self.rnd.randbytes(self.rnd.randrange(101)))

    def a_random64(self) -> None:
        self.send(cid_bytes(self.pick_cid()) + self.rnd.randbytes(60))

    def a_init_good(self) -> None:
        self.sent += 1
        cid = self.init_channel()
        self.known.append(cid)
        if len(self.known) > 8:
            self.known.pop(0)

    def a_init_bad(self) -> None:
        k = self.rnd.randrange(5)
        nonce = self.rnd.randbytes(8)
        if k == 0:      # wrong length on broadcast
            self.send(init_pkt(BROADCAST, INIT, self.pick_bcnt(), nonce))
        elif k == 1:    # INIT on an allocated channel (resynchronisation)
            self.send(init_pkt(self.pick_cid(), INIT, 8, nonce))
        elif k == 2:    # INIT on channel 0 or a random one
            self.send(init_pkt(self.rnd.choice([0, self.rnd.getrandbits(32)]), INIT, 8, nonce))
        elif k == 3:    # INIT announcing more than one packet, then continuations
            cid = self.pick_cid()
            self.send(init_pkt(cid, INIT, self.rnd.choice([9, 57, 100, 8 + 59]), nonce))
            self.send(cont_pkt(cid, 0, self.rnd.randbytes(59)))
        else:           # continuation packet on broadcast
            self.send(cont_pkt(BROADCAST, self.rnd.randrange(128), self.rnd.randbytes(59)))

    def release(self, cid: int) -> None:
        """Mostly, a message left unfinished is cancelled (as a host would);
        otherwise the channel stays busy until the daemon's timeout, and
        other channels get CHANNEL_BUSY meanwhile."""
        if self.rnd.random() < 0.7:
            self.send(init_pkt(cid, self.rnd.choice([CANCEL, CANCEL, INIT]), 8,
                               self.rnd.randbytes(8)))

    def a_init_random(self) -> None:
        cmd = self.rnd.choice([self.rnd.randrange(0x80, 0x100), PING, MSG, LOCK, WINK,
                               CBOR, CANCEL, KEEPALIVE, ERROR, 0xC0, 0xFF])
        bcnt = self.pick_bcnt()
        cid = self.pick_cid()
        self.send(init_pkt(cid, cmd, bcnt, self.rnd.randbytes(57)))
        if bcnt > INIT_DATA:
            self.release(cid)

    def a_cont_random(self) -> None:
        self.send(cont_pkt(self.pick_cid(), self.rnd.choice([0, 1, 127, self.rnd.randrange(128)]),
                           self.rnd.randbytes(59)))

    def a_multi(self) -> None:
        """A message over several packets with one fault (or none)."""
        cid = self.pick_cid()
        cmd = self.rnd.choice([PING, PING, CBOR, MSG, WINK, self.rnd.randrange(0x80, 0x100)])
        n = self.rnd.choice([58, 116, 117, 300, 1000, self.rnd.randrange(MAX_MSG + 1)])
        payload = self.rnd.randbytes(n)
        if cmd in (CBOR, MSG):
            payload = bytes([self.rnd.choice([1, 2, 4, 7, 8, 0x0b, 0x40])]) + payload[1:]
        pk = frame(cid, cmd, payload)
        fault = self.rnd.randrange(8)
        at = self.rnd.randrange(1, len(pk)) if len(pk) > 1 else 1
        if fault == 0 and len(pk) > 1:      # wrong sequence number
            pk[at] = pk[at][:4] + bytes([(pk[at][4] + self.rnd.randrange(1, 128)) % 128]) + pk[at][5:]
        elif fault == 1 and len(pk) > 1:    # a packet repeated
            pk.insert(at, pk[at])
        elif fault == 2 and len(pk) > 1:    # a packet skipped
            del pk[at]
        elif fault == 3:                    # left unfinished
            pk = pk[:at]
        elif fault == 4:                    # a new init packet in the middle
            pk.insert(at, init_pkt(cid, self.rnd.choice([PING, CBOR, 0x99]), 5, b"xyz"))
        elif fault == 5:                    # CANCEL in the middle
            pk.insert(at, init_pkt(cid, CANCEL, 0))
        elif fault == 6:                    # INIT in the middle (resync)
            pk.insert(at, init_pkt(cid, INIT, 8, self.rnd.randbytes(8)))
        elif fault == 7:                    # more announced than sent, or sequence past 127
            pk[0] = pk[0][:5] + struct.pack(">H", self.pick_bcnt()) + pk[0][7:]
        for p in pk:
            self.send(p)
        if fault in (3, 7):
            self.release(cid)

    def a_cancel(self) -> None:
        self.send(init_pkt(self.pick_cid(), CANCEL, self.rnd.choice([0, 0, 1, 57, 300])))

    def a_interleave(self) -> None:
        """A message on one channel while other channels talk in between."""
        if len(self.known) < 2:
            self.a_init_good()
            self.a_init_good()
        a = self.rnd.choice(self.known)
        n = self.rnd.choice([120, 400, 1500])
        pk = frame(a, self.rnd.choice([PING, CBOR]), self.rnd.randbytes(n))
        for p in pk:
            self.send(p)
            if self.rnd.random() < 0.5:
                b = self.pick_cid()
                k = self.rnd.randrange(4)
                if k == 0:
                    self.send(init_pkt(b, self.rnd.choice([PING, CBOR, WINK]), 3, b"abc"))
                elif k == 1:
                    self.send(cont_pkt(b, self.rnd.randrange(128), b"zz"))
                elif k == 2:
                    self.send(init_pkt(BROADCAST, INIT, 8, self.rnd.randbytes(8)))
                else:
                    self.send(init_pkt(b, CANCEL, 0))

    # CTAP2 requests --------------------------------------------------------
    def rand_value(self, depth: int = 0):
        k = self.rnd.randrange(12 if depth < 3 else 8)
        if k == 0:
            return self.rnd.choice([0, 1, 23, 24, 255, 256, 65535, 65536, 2 ** 32, 2 ** 64 - 1])
        if k == 1:
            return -self.rnd.choice([1, 24, 25, 53, 56, 256, 2 ** 31, 2 ** 64])   # never an FN-DSA alg
        if k == 2:
            return self.rnd.randbytes(self.rnd.choice([0, 1, 16, 32, 33, 64, 65, 255, 300]))
        if k == 3:
            return self.rnd.choice(["", "a", "public-key", "rk", "up", "uv", "id", "é", "x" * 300])
        if k == 4:
            return Text(self.rnd.randbytes(self.rnd.randrange(1, 8)))   # maybe bad UTF-8
        if k == 5:
            return self.rnd.choice([True, False, None])
        if k == 6:
            return Raw(self.rnd.choice([b"\xf7", b"\xf8\x20", b"\xf9\x3c\x00", b"\xc0\x01",
                                        b"\x5f\x41\x00\xff", b"\x9f\xff", b"\x18\x05",
                                        b"\x1c", b"\x5a\xff\xff\xff\xff", b"\x9b" + b"\xff" * 8,
                                        b"\xbf\xff", b"\xe0", b"\x7f\xff"]))
        if k == 7:
            return Raw(b"\x81" * self.rnd.randrange(1, 20) + b"\x00")    # deep nesting
        if k in (8, 9):
            return [self.rand_value(depth + 1) for _ in range(self.rnd.randrange(4))]
        return {self.rand_key(): self.rand_value(depth + 1) for _ in range(self.rnd.randrange(4))}

    def rand_key(self):
        return self.rnd.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 24, 255, -1, -54,
                                "id", "type", "alg", "rk", "up", "uv", "name", "displayName",
                                "icon", "zz"])

    def rp_id(self) -> str:
        return self.rnd.choice(["fuzz.example", "a.b", "x", "example.com", "EXAMPLE.com",
                                "a..b", "-a.b", "a-.b", "1.2.3.4", "a" * 64 + ".b",
                                "a." * 127 + "b", "é.example", "a b", "a.b.", ""])

    def make_credential_req(self) -> dict:
        # Algorithms the key does not support (one-byte or far from -54/-55):
        # no mutation below turns one into FN-DSA, so none of these makes a key.
        algs = [{"alg": self.rnd.choice([-7, -8, -257, -1, 1]), "type": "public-key"}
                for _ in range(self.rnd.randrange(1, 4))]
        req = {1: self.rnd.randbytes(32),
               2: {"id": self.rp_id(), "name": "RP"},
               3: {"id": self.rnd.randbytes(self.rnd.choice([1, 16, 64, 65])),
                   "name": "user", "displayName": "User"},
               4: algs}
        if self.rnd.random() < 0.5:
            req[7] = {"rk": self.rnd.choice([True, False])}
        if self.rnd.random() < 0.3:
            req[5] = [{"id": self.rnd.randbytes(self.rnd.choice([16, 64, 100])),
                       "type": "public-key"}]
        if self.rnd.random() < 0.2:
            req[8] = self.rnd.choice([b"", b"\x01" * 16])
            req[9] = 1
        if self.rnd.random() < 0.2:
            req[6] = {}
        return req

    def get_assertion_req(self) -> dict:
        req = {1: self.rp_id(), 2: self.rnd.randbytes(32)}
        if self.rnd.random() < 0.5:
            req[3] = [{"id": self.rnd.randbytes(self.rnd.choice([0, 16, 64, 100, 200])),
                       "type": self.rnd.choice(["public-key", "x"])}
                      for _ in range(self.rnd.randrange(4))]
        if self.rnd.random() < 0.5:
            req[5] = {self.rnd.choice(["up", "uv", "rk"]): self.rnd.choice([True, False])}
        if self.rnd.random() < 0.2:
            req[6] = self.rnd.choice([b"", b"\x01" * 16])
            req[7] = 1
        if self.rnd.random() < 0.2:
            req[4] = {"hmac-secret": True}
        return req

    def mutate_struct(self, v, depth: int = 0):
        """One structural change somewhere in v (maps and arrays descended)."""
        if isinstance(v, dict) and v and self.rnd.random() < 0.7:
            key = self.rnd.choice(list(v))
            v = dict(v)
            k = self.rnd.randrange(6)
            if k == 0:
                del v[key]
            elif k == 1:
                v[key] = self.rand_value()
            elif k == 2:
                v[self.rand_key()] = self.rand_value()
            elif k == 3 and depth < 4:
                v[key] = self.mutate_struct(v[key], depth + 1)
            elif k == 4:        # keys out of order or duplicated
                pairs = list(v.items())
                self.rnd.shuffle(pairs)
                if self.rnd.random() < 0.5:
                    pairs.append(pairs[0])
                return Pairs(pairs)
            else:
                v[key] = self.mutate_struct(v[key], depth + 1) if depth < 4 else None
            return v
        if isinstance(v, list) and v and self.rnd.random() < 0.7:
            v = list(v)
            i = self.rnd.randrange(len(v))
            k = self.rnd.randrange(4)
            if k == 0:
                del v[i]
            elif k == 1:
                v.insert(i, self.rand_value())
            elif k == 2:
                v.extend(v * self.rnd.choice([1, 10, 40]))
            else:
                v[i] = self.mutate_struct(v[i], depth + 1)
            return v
        return self.rand_value()

    def mutate_bytes(self, b: bytes) -> bytes:
        b = bytearray(b)
        for _ in range(self.rnd.randrange(1, 5)):
            k = self.rnd.randrange(6)
            i = self.rnd.randrange(len(b)) if b else 0
            if not b:
                b += self.rnd.randbytes(3)
            elif k == 0:
                b[i] ^= 1 << self.rnd.randrange(8)
            elif k == 1:
                b[i] = self.rnd.randrange(256)
            elif k == 2:
                del b[i]
            elif k == 3:
                b.insert(i, self.rnd.randrange(256))
            elif k == 4:
                del b[i:]
            else:
                b += self.rnd.randbytes(self.rnd.randrange(1, 8))
        return bytes(b)

    def a_cbor(self) -> None:
        """A CTAPHID_CBOR message with a random or mutated body."""
        k = self.rnd.randrange(10)
        if k == 0:
            body = self.rnd.randbytes(self.rnd.randrange(1, 200))
            if body == b"\x07":
                body = b"\x07\x00"     # not a Reset: those are counted (a_valid)
        elif k == 1:
            body = bytes([self.rnd.randrange(256)]) + cbor(self.rand_value())
        elif k == 2:    # commands without parameters, with or without some
            body = bytes([self.rnd.choice([0x04, 0x08, 0x0b, 0x06, 0x09, 0x0a, 0x40, 0xff])])
            if self.rnd.random() < 0.5:
                body += cbor(self.rand_value())
        else:
            cmd = self.rnd.choice([0x01, 0x02])
            req = self.make_credential_req() if cmd == 1 else self.get_assertion_req()
            if self.rnd.random() < 0.8:
                req = self.mutate_struct(req)
            body = bytes([cmd]) + cbor(req)
            if self.rnd.random() < 0.25:
                body = body[:1] + self.mutate_bytes(body[1:])
        if len(body) > MAX_MSG:
            body = body[:MAX_MSG]
        cid = self.rnd.choice(self.known) if self.known and self.rnd.random() < 0.8 else self.pick_cid()
        for p in frame(cid, CBOR, body):
            self.send(p)

    def ctap(self, body: bytes, timeout: float = 120.0):
        """A checked CTAP2 request on a fresh channel: (status, payload)."""
        cid = self.init_channel()
        cmd, data = self.transact(cid, CBOR, body, timeout)
        if cmd != CBOR or len(data) < 1:
            raise Failure("CTAP2 command %02x: answer %02x of %d bytes" % (body[0], cmd, len(data)))
        return data[0], data[1:]

    def a_valid(self) -> None:
        """Checked requests with known answers (few expensive ones)."""
        self.sent += 1
        k = self.rnd.randrange(6)
        if k == 0 or k == 1:
            st, data = self.ctap(b"\x04")
            if st != 0 or not data or data[0] >> 5 != 5 or b"FIDO_2_1" not in data:
                raise Failure("getInfo: status %02x, %d bytes" % (st, len(data)))
        elif k == 2 and self.keygens < self.keygen_budget:
            self.keygens += 1
            # an rpId the fuzz mix never uses: mutated getAssertion
            # requests find no credential and sign nothing
            rp = "kg%d.example" % self.keygens
            rk = self.rnd.choice([True, False])
            req = {1: self.cdh, 2: {"id": rp, "name": "RP"},
                   3: {"id": b"fuzz-user-%d" % self.keygens, "name": "u", "displayName": "U"},
                   4: [{"alg": self.rnd.choice([ALG_FNDSA512, ALG_FNDSA512, ALG_FNDSA1024,
                                                ALG_FALCON512_R3]),
                        "type": "public-key"}],
                   7: {"rk": rk}}
            st, data = self.ctap(b"\x01" + cbor(req))
            if st != 0 or b"packed" not in data:
                raise Failure("makeCredential: status %02x" % st)
            # credential id: authData (after "authData" bstr head) at 32+1+4+16+2
            i = data.index(b"packed") + len(b"packed") + 1
            h = data[i]
            hl = {0x58: 2, 0x59: 3}.get(h, 1)
            auth = data[i + hl:]
            idlen = struct.unpack(">H", auth[53:55])[0]
            self.cred = (rp, bytes(auth[55:55 + idlen]), rk)
        elif k == 3 and self.cred is not None and self.assertions < 2 * self.keygen_budget:
            self.assertions += 1
            rp, cred_id, rk = self.cred
            req = {1: rp, 2: self.cdh}
            listed = not rk or self.rnd.random() < 0.5
            if listed:
                req[3] = [{"id": cred_id, "type": "public-key"}]
            st, data = self.ctap(b"\x02" + cbor(req))
            if self.resets == 0:
                if st != 0 or cred_id not in data:
                    raise Failure("getAssertion (%s) of the credential made before: status %02x"
                                  % ("allow list" if listed else "discoverable", st))
            elif st not in (0, 0x2e):
                raise Failure("getAssertion after Reset: status %02x" % st)
        elif k == 4 and self.resets < 1 and self.sent > self.target // 2:
            self.resets += 1
            st, _ = self.ctap(b"\x07")
            if st != 0:
                raise Failure("Reset: status %02x" % st)
        else:
            st, _ = self.ctap(self.rnd.choice([b"\x0b", b"\x08", b"\x04\xa0", b"\x40"]))

    def a_ping_max(self) -> None:
        self.sent += 1
        self.check(ping_len=MAX_MSG)

    ACTIONS = [
        ("random_len", 15), ("random64", 10), ("init_good", 3), ("init_bad", 5),
        ("init_random", 14), ("cont_random", 8), ("multi", 10), ("cbor", 22),
        ("cancel", 4), ("interleave", 3), ("valid", 2), ("ping_max", 1),
    ]

    def run(self) -> None:
        names = [n for n, _ in self.ACTIONS]
        weights = [w for _, w in self.ACTIONS]
        self.start()
        self.check()
        self.a_init_good()
        next_barrier = BARRIER_EVERY
        next_check = self.check_every
        t0 = time.monotonic()
        while self.sent < self.target:
            name = self.rnd.choices(names, weights)[0]
            self.stats[name] = self.stats.get(name, 0) + 1
            getattr(self, "a_" + name)()
            if self.sent >= next_barrier:
                self.alive()
                self.barrier()
                next_barrier = self.sent + BARRIER_EVERY
            if self.sent >= next_check:
                self.check()
                next_check += self.check_every
                if self.verbose:
                    print("fuzz_udp: %d reports, %d replies, %.1f s"
                          % (self.sent, self.replies, time.monotonic() - t0), flush=True)
        # The end: the daemon answers, a maximal PING is echoed, then SIGTERM.
        time.sleep(0.6)     # unfinished messages time out
        self.drain()
        self.check()
        self.check(ping_len=MAX_MSG)
        self.drain()
        rc = self.stop()
        if rc != 0:
            raise Failure("exit status %s after SIGTERM (0 expected)" % rc)


def log_tail(path: Path, n: int = 60) -> str:
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return "(no log)"
    return "\n".join(lines[-n:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--daemon", default=os.environ.get("FIDO2_DAEMON"))
    ap.add_argument("--reports", type=int, default=int(os.environ.get("FIDO2_FUZZ_REPORTS", "20000")))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("FIDO2_FUZZ_SEED", "20261201")))
    ap.add_argument("--check-every", type=int, default=1000)
    ap.add_argument("--keygens", type=int, default=int(os.environ.get("FIDO2_FUZZ_KEYGENS", "3")))
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if not args.daemon:
        ap.error("--daemon PATH (or FIDO2_DAEMON) is required")
    work = Path(tempfile.mkdtemp(prefix="fido2-fuzz-udp-"))
    fz = Fuzzer(args.daemon, args.seed, args.reports, args.check_every, args.keygens,
                work, args.verbose)
    t0 = time.monotonic()
    print("fuzz_udp: seed %d, %d reports, daemon %s, work dir %s"
          % (args.seed, args.reports, args.daemon, work), flush=True)
    failure = None
    try:
        fz.run()
    except Failure as e:
        failure = str(e)
    except Exception as e:  # noqa: BLE001 -- a harness error is a failure too
        failure = "%s: %s" % (type(e).__name__, e)
    finally:
        if fz.proc is not None and fz.proc.poll() is None:
            fz.proc.kill()
            fz.proc.wait()
    text = fz.log.read_text(errors="replace") if fz.log.exists() else ""
    found = [m for m in SANITIZER_MARKS if m in text]
    if found:
        failure = "%ssanitizer report in the daemon's stderr: %s" % (
            "" if failure is None else failure + "; ", ", ".join(found))
    dt = time.monotonic() - t0
    print("fuzz_udp: %d reports sent, %d replies read, %d liveness checks, %d keys made,"
          " %d assertions, %d resets, %.1f s" % (fz.sent, fz.replies, fz.checks, fz.keygens,
                                                 fz.assertions, fz.resets, dt))
    print("fuzz_udp: actions %s" % ", ".join("%s %d" % kv for kv in sorted(fz.stats.items())))
    print("fuzz_udp: answers %s" % ", ".join("%s %d" % kv for kv in sorted(fz.answers.items())))
    if failure is not None:
        print("fuzz_udp: FAILED after %d reports (seed %d): %s" % (fz.sent, args.seed, failure))
        print("fuzz_udp: --- daemon stderr (%s), last lines ---" % fz.log)
        print(log_tail(fz.log))
        env = " ".join("%s=%s" % (k, os.environ[k]) for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS")
                       if k in os.environ)
        print("fuzz_udp: reproduce: %s%s %s --daemon %s --seed %d --reports %d --keygens %d"
              % (env + " " if env else "", sys.executable, Path(__file__).resolve(),
                 args.daemon, args.seed, args.reports, args.keygens))
        print("fuzz_udp: 0 passed, 1 failed")
        return 1
    if not args.keep:
        for p in sorted(work.rglob("*"), reverse=True):
            p.rmdir() if p.is_dir() else p.unlink()
        work.rmdir()
    print("fuzz_udp: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
