#!/usr/bin/env python3
"""soc_uart_link_test.py -- the UART link's framing against the firmware
on the Verilated SoC (soc_sim --uart-pty: the pseudo-terminal a board's
serial port stands for; soc/doc/soclink.md, UART link). Sends good and
malformed frames through the pty and checks each answer:

  PING in a good frame                      -> OK, the SoC and accelerator IDs
  the firmware's console                    -> CONSOLE frames only (boot line)
  a good frame, request with a bad magic    -> BAD_MAGIC (the message layer)
  PING with a wrong CRC-32                  -> FRAME_CRC (aux: that CRC)
  a length above FA_SOC_MAX_MSG + body      -> FRAME_LENGTH (aux: the length)
  a frame of another type                   -> FRAME_TYPE (aux: the type)
  garbage without the magic, then a pause   -> FRAME_SYNC (aux: bytes dropped)
  a truncated frame, then a pause           -> FRAME_TIMEOUT (aux: bytes received)
  garbage right before a good frame         -> OK (skipped, no error reply)
  two requests back to back in one write    -> two replies in order

and a good PING after every error: the firmware resynchronises and keeps
serving. Prints the simulated cycles and the link's byte counts.

--client SOC_SMOKE: also the host client's side (soc/host/soc_client.c, its
serial-port code: FALCON_ACCEL_SOC_PORT on a pseudo-terminal) against a
faulty board played by this script: a reply with a bad CRC-32, a reply
frame longer than FA_SOC_MAX_MSG, FRAME_CRC answers to every PING, and
silence each fail the client's opening with a message saying which.
  usage: soc_uart_link_test.py --sim SIM --fw FW.elf [--console FILE]
                               [--client SOC_SMOKE]"""
import argparse
import os
import pty
import random
import threading
import select
import struct
import subprocess
import sys
import termios
import time
import tty
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import soc_proto as P  # noqa: E402  (generated: soc/util/gen_soclink.py)

ST = {v: k.upper() for k, v in P.STATUSES.items()}
failures = 0


def check(ok, what):
    global failures
    print("%s: %s" % ("ok  " if ok else "FAIL", what))
    if not ok:
        failures += 1


def frame(body, ftype=P.LINK_TYPES["request"], length=None, crc=None):
    n = len(body) if length is None else length
    hdr = struct.pack("<II", n, ftype)
    c = zlib.crc32(hdr + body) if crc is None else crc
    return struct.pack("<I", P.LINK_MAGIC) + hdr + body + struct.pack("<I", c & 0xFFFFFFFF)


def request(op, seq, logn=0, mode=0, fields=(), magic=P.REQ_MAGIC):
    b = struct.pack(P.REQ_HDR_FORMAT, magic, op, logn, mode, seq)
    for f in fields:
        b += struct.pack("<I", len(f)) + f
    return b


class Link:
    def __init__(self, sim, fw, console):
        self.log = open(console, "w") if console else subprocess.DEVNULL
        self.p = subprocess.Popen([sim, "--fw", fw, "--uart-pty"], stdout=subprocess.PIPE,
                                  stderr=self.log, stdin=subprocess.DEVNULL)
        line = self.p.stdout.readline().decode()
        if not line.startswith("soc_sim: uart pty "):
            raise SystemExit("FAIL: the simulator did not name its pty (%r)" % line)
        self.path = line.split()[-1]
        self.fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        attr = termios.tcgetattr(self.fd)
        attr[6][termios.VMIN] = 0
        attr[6][termios.VTIME] = 0
        termios.tcsetattr(self.fd, termios.TCSANOW, attr)
        self.buf = b""
        self.console = b""

    def send(self, data):
        os.write(self.fd, data)

    def _fill(self, deadline):
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            r, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if r:
                d = os.read(self.fd, 4096)
                if d:
                    self.buf += d
                    return

    def frame(self, timeout=120):
        """(type, body) of the next frame; bytes before a magic are skipped."""
        deadline = time.monotonic() + timeout
        magic = struct.pack("<I", P.LINK_MAGIC)
        while True:
            i = self.buf.find(magic)
            if i >= 0 and len(self.buf) >= i + P.LINK_HDR:
                _, n, ftype = struct.unpack(P.LINK_HDR_FORMAT, self.buf[i:i + P.LINK_HDR])
                if n > P.MAX_MSG:
                    raise SystemExit("FAIL: frame length %d from the SoC" % n)
                end = i + P.LINK_HDR + n + 4
                if len(self.buf) >= end:
                    body = self.buf[i + P.LINK_HDR:end - 4]
                    (c,) = struct.unpack("<I", self.buf[end - 4:end])
                    self.buf = self.buf[end:]
                    if c != zlib.crc32(struct.pack("<II", n, ftype) + body):
                        raise SystemExit("FAIL: frame from the SoC with a bad CRC")
                    return ftype, body
            self._fill(deadline)

    def reply(self, timeout=120):
        """The next REPLY's header fields as a dict, and its body; CONSOLE
        frames are collected on the way."""
        while True:
            ftype, body = self.frame(timeout)
            if ftype == P.LINK_TYPES["console"]:
                self.console += body
                continue
            if ftype != P.LINK_TYPES["reply"]:
                raise SystemExit("FAIL: frame of type %d from the SoC" % ftype)
            h = dict(zip(P.RSP_HDR_FIELDS, struct.unpack(P.RSP_HDR_FORMAT, body[:P.RSP_HDR])))
            return h, body

    def close(self):
        os.close(self.fd)
        try:
            self.p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def reply_body(status=0, seq=1, op=1):
    return struct.pack(P.RSP_HDR_FORMAT, P.RSP_MAGIC, op, status, seq, 0, 0, 0, 0, 0, 0, 0)


def faulty_board(client, answer, expect, what):
    """Run the client against a pty whose far end answers each request
    frame with answer(seq) (bytes, or None: silence); its output must
    contain `expect`."""
    m, sl = pty.openpty()
    path = os.ttyname(sl)
    done = threading.Event()

    def board():
        buf = b""
        magic = struct.pack("<I", P.LINK_MAGIC)
        while not done.is_set():
            r, _, _ = select.select([m], [], [], 0.2)
            if not r:
                continue
            try:
                buf += os.read(m, 4096)
            except OSError:
                return
            while True:
                i = buf.find(magic)
                if i < 0 or len(buf) < i + P.LINK_HDR:
                    break
                _, n, _ = struct.unpack(P.LINK_HDR_FORMAT, buf[i:i + P.LINK_HDR])
                end = i + P.LINK_HDR + n + 4
                if len(buf) < end:
                    break
                seq = struct.unpack("<I", buf[i + P.LINK_HDR + 8:i + P.LINK_HDR + 12])[0]
                buf = buf[end:]
                out = answer(seq)
                if out:
                    os.write(m, out)
    t = threading.Thread(target=board, daemon=True)
    t.start()
    env = dict(os.environ, FALCON_ACCEL_SOC_PORT=path, FALCON_ACCEL_SOC_TIMEOUT="3")
    r = subprocess.run([client], env=env, capture_output=True, text=True, timeout=120)
    done.set()
    t.join()
    os.close(sl)
    os.close(m)
    out = (r.stdout + r.stderr).strip().splitlines()
    msg = next((x for x in out if "soc:" in x), out[-1] if out else "")
    check(r.returncode != 0 and expect in msg, "client vs a board that %s: %s" % (what, msg))


def client_checks(client):
    def bad_crc(seq):
        f = frame(reply_body(seq=seq), ftype=P.LINK_TYPES["reply"])
        return f[:-4] + bytes(b ^ 0xFF for b in f[-4:])
    faulty_board(client, bad_crc, "bad CRC-32", "answers with a bad CRC-32")
    faulty_board(client, lambda seq: frame(b"", ftype=P.LINK_TYPES["reply"], length=P.MAX_MSG + 1),
                 "malformed frame", "sends a frame above FA_SOC_MAX_MSG")
    faulty_board(client, lambda seq: frame(reply_body(status=P.STATUSES["frame_crc"], seq=0, op=0),
                                           ftype=P.LINK_TYPES["reply"]),
                 "FRAME_CRC", "answers FRAME_CRC every time")
    faulty_board(client, lambda seq: None, "no reply", "stays silent")
    # and a good one: noise, a console frame, then the reply
    faulty_board(client, lambda seq: (b"boot noise\r\n" + frame(b"hello\n", ftype=P.LINK_TYPES["console"])
                                      + frame(reply_body(seq=seq, op=P.OPS["ping"])
                                              + struct.pack("<I", 12) + b"CCOS\0\0\0\0CLAF",
                                              ftype=P.LINK_TYPES["reply"])
                                      if seq == 1 else None),
                 "FAIL: link: soc:", "answers the opening PING after noise and a console frame "
                 "(opened), then stays silent")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim", required=True)
    ap.add_argument("--fw", required=True)
    ap.add_argument("--console", default=None)
    ap.add_argument("--client", default=None)
    a = ap.parse_args()
    if a.client:
        client_checks(a.client)
    t0 = time.monotonic()
    ln = Link(a.sim, a.fw, a.console)
    seq = [0]

    def ping(what):
        seq[0] += 1
        ln.send(frame(request(P.OPS["ping"], seq[0])))
        h, body = ln.reply()
        ok = (h["status"] == 0 and h["seq"] == seq[0] and h["op"] == P.OPS["ping"]
              and body[P.RSP_HDR + 4:P.RSP_HDR + 8] == b"CCOS"
              and body[P.RSP_HDR + 12:P.RSP_HDR + 16] == b"CLAF")
        check(ok, "PING %s" % what)

    def expect(data, status, aux, what, timeout=120):
        ln.send(data)
        h, body = ln.reply(timeout)
        got = ST.get(h["status"], h["status"])
        ok = (got == status and h["op"] == 0 and h["seq"] == 0 and len(body) == P.RSP_HDR
              and (aux is None or h["aux"] == aux))
        check(ok, "%s -> %s (aux %d)%s" % (what, got, h["aux"],
                                           "" if ok else ", expected %s aux %s" % (status, aux)))

    ping("in a good frame: OK, SoC and accelerator IDs")
    check(b"serving the UART link" in ln.console,
          "console text in CONSOLE frames: %r" % ln.console.decode(errors="replace").strip())

    seq[0] += 1
    ln.send(frame(request(P.OPS["ping"], seq[0], magic=0x01020304)))
    h, _ = ln.reply()
    check(ST[h["status"]] == "BAD_MAGIC" and h["seq"] == seq[0],
          "good frame, request with a bad magic -> %s" % ST[h["status"]])

    good = frame(request(P.OPS["ping"], 77))
    c = struct.unpack("<I", good[-4:])[0] ^ 0x00010000
    expect(good[:-4] + struct.pack("<I", c), "FRAME_CRC", c, "PING with a wrong CRC-32")
    ping("after FRAME_CRC")

    big = P.MAX_MSG + 1
    expect(frame(b"\x00" * 64, length=big), "FRAME_LENGTH", big,
           "length %d (above FA_SOC_MAX_MSG) and 64 body bytes" % big)
    ping("after FRAME_LENGTH")
    expect(frame(b"\x00" * 0x7000, length=0x100000), "FRAME_LENGTH", 0x100000,
           "length 0x100000, 28 KiB of body")
    ping("after FRAME_LENGTH (long body)")

    expect(frame(request(P.OPS["ping"], 5), ftype=7), "FRAME_TYPE", 7, "a frame of type 7")
    ping("after FRAME_TYPE")

    rng = random.Random(5)
    junk = bytes(rng.randrange(256) for _ in range(50))
    assert struct.pack("<I", P.LINK_MAGIC) not in junk
    expect(junk, "FRAME_SYNC", len(junk), "50 bytes of garbage, then a pause")
    ping("after FRAME_SYNC")

    req = frame(request(P.OPS["ping"], 9))
    expect(req[:10], "FRAME_TIMEOUT", 6, "a frame cut after 10 bytes, then a pause")
    ping("after FRAME_TIMEOUT")
    body = request(P.OPS["verify"], 9, 9, 0, [b"\x09" * 897, b"\x39" * 600, b"msg"])
    req = frame(body)
    expect(req[:700], "FRAME_TIMEOUT", 700 - 4, "a 1.5 KiB frame cut after 700 bytes")
    ping("after FRAME_TIMEOUT (in the body)")

    seq[0] += 1
    ln.send(junk[:20] + frame(request(P.OPS["ping"], seq[0])))
    h, _ = ln.reply()
    check(h["status"] == 0 and h["seq"] == seq[0],
          "20 garbage bytes right before a good frame: skipped, PING answered")

    s1, s2 = seq[0] + 1, seq[0] + 2
    seq[0] += 2
    ln.send(frame(request(P.OPS["ping"], s1)) + frame(request(P.OPS["ping"], s2)))
    h1, _ = ln.reply()
    h2, _ = ln.reply()
    check(h1["status"] == 0 and h2["status"] == 0 and (h1["seq"], h2["seq"]) == (s1, s2),
          "two requests in one write: two replies in order")
    ping("at the end: the link still serves")
    ln.close()
    print("soc_uart_link_test: %s (%.1f s; %s)" % (
        "FAILED" if failures else "all checks passed", time.monotonic() - t0, ln.path))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
