"""python-fido2 over UDP to falcon-accel-fido2, and FN-DSA COSE keys.

- ``UdpCtapHidConnection``: a python-fido2 ``CtapHidConnection`` whose
  reports are UDP datagrams (64 bytes each): sent to 127.0.0.1:port,
  received on 127.0.0.1:reply_port (the daemon's convention).
- ``FNDSA512`` / ``FNDSA1024``: ``CoseKey`` subclasses (key type AKP, public
  key under -1) that verify with the falcon_accel Python package. Their
  algorithm identifiers are read from apps/fido2/core/fido2_cose.h, the one place
  that holds them.
- ``Daemon``: starts/stops/kills the daemon for tests.

Which authenticator the suite drives (one switch, the assertions do not
change): ``FIDO2_E2E_TARGET``
- ``daemon`` (default): falcon-accel-fido2, the host core;
- ``soc``: falcon-accel-fido2-soc, the bridge to the firmware on the
  simulated SoC (apps/fido2/fw/fido2_main.c; ``FIDO2_SOC_ARGS`` adds bridge options such
  as ``--sim PATH --fw PATH --mode dma --cycle-log FILE``);
- ``soc-host``: the same bridge with the firmware's device code in-process
  (``--core host``).
``FIDO2_E2E_TIMEOUT``: seconds a read waits for the next report (default 30;
the SoC bridge sends KEEPALIVE while the firmware computes).
"""
from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import time
from pathlib import Path

import falcon_accel
from fido2.cose import CoseKey
from fido2.hid import CtapHidDevice
from fido2.hid.base import CtapHidConnection, HidDescriptor

REPO = Path(__file__).resolve().parents[4]
TARGET = os.environ.get("FIDO2_E2E_TARGET", "daemon")
if TARGET not in ("daemon", "soc", "soc-host"):
    raise ValueError("FIDO2_E2E_TARGET must be daemon, soc or soc-host, not %r" % TARGET)
READ_TIMEOUT = float(os.environ.get("FIDO2_E2E_TIMEOUT", "30"))
COSE_HEADER = REPO / "apps" / "fido2" / "core" / "fido2_cose.h"


def _cose_constants() -> dict:
    text = COSE_HEADER.read_text()
    vals = {}
    for name, val in re.findall(r"#define\s+(FIDO2_COSE_\w+)\s+\(?(-?\d+)\)?", text):
        vals[name] = int(val)
    return vals


_COSE = _cose_constants()
KTY_AKP = _COSE["FIDO2_COSE_KTY_AKP"]
LABEL_PUB = _COSE["FIDO2_COSE_LABEL_AKP_PUB"]
ALG_FNDSA512 = _COSE["FIDO2_COSE_ALG_FNDSA512"]
ALG_FNDSA1024 = _COSE["FIDO2_COSE_ALG_FNDSA1024"]


class _FnDsaKey(CoseKey):
    LOGN = 0

    def verify(self, message: bytes, signature: bytes) -> None:
        if self.get(1) != KTY_AKP:
            raise ValueError("FN-DSA COSE key: kty must be AKP (%d)" % KTY_AKP)
        pub = self.get(LABEL_PUB)
        if not isinstance(pub, (bytes, bytearray)) or len(pub) < 1 or pub[0] != self.LOGN:
            raise ValueError("FN-DSA COSE key: pub is not a Falcon-%d public key"
                             % (1 << self.LOGN))
        # Compressed signatures only (header 0x30 + logn).
        if len(signature) < 1 or signature[0] != 0x30 + self.LOGN:
            raise ValueError("FN-DSA signature: not the compressed format")
        if not falcon_accel.verify(bytes(pub), bytes(message), bytes(signature)):
            raise ValueError("FN-DSA signature does not verify")


class FNDSA512(_FnDsaKey):
    ALGORITHM = ALG_FNDSA512
    LOGN = 9


class FNDSA1024(_FnDsaKey):
    ALGORITHM = ALG_FNDSA1024
    LOGN = 10


class UdpCtapHidConnection(CtapHidConnection):
    """``alive``: optional callable; while it returns True a read keeps
    waiting (up to ``timeout``), once it returns False the read fails at the
    next 0.2 s poll (the daemon was killed)."""

    def __init__(self, port: int, reply_port: int, timeout: float = READ_TIMEOUT,
                 alive=None):
        self.dest = ("127.0.0.1", port)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", reply_port))
        self.sock.settimeout(0.2)
        self.timeout = timeout
        self.alive = alive

    def read_packet(self) -> bytes:
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                data = self.sock.recv(64)
                break
            except socket.timeout:
                if self.alive is not None and not self.alive():
                    raise ConnectionError("authenticator process is gone")
                if time.monotonic() > deadline:
                    raise
        if len(data) != 64:
            raise OSError("short report (%d bytes)" % len(data))
        return data

    def write_packet(self, data: bytes) -> None:
        data = bytes(data).ljust(64, b"\0")
        self.sock.sendto(data, self.dest)

    def close(self) -> None:
        self.sock.close()


def open_device(port: int, reply_port: int, timeout: float = READ_TIMEOUT,
                alive=None) -> CtapHidDevice:
    conn = UdpCtapHidConnection(port, reply_port, timeout, alive)
    desc = HidDescriptor("udp:%d" % port, 0x1209, 0xFA1C, 64, 64,
                         "falcon-accel-fido2", None)
    try:
        return CtapHidDevice(desc, conn)
    except Exception:
        conn.close()
        raise


def daemon_path() -> str:
    if TARGET != "daemon":
        return bridge_path()
    p = os.environ.get("FIDO2_DAEMON")
    if p:
        return p
    for cand in (REPO / "build" / "fido2-e2e" / "apps" / "fido2" / "host" / "falcon-accel-fido2",
                 REPO / "build" / "apps" / "fido2" / "host" / "falcon-accel-fido2"):
        if cand.exists():
            return str(cand)
    raise FileNotFoundError("falcon-accel-fido2 not built (set FIDO2_DAEMON)")


def bridge_path() -> str:
    p = os.environ.get("FIDO2_SOC_BRIDGE")
    if p:
        return p
    for cand in (REPO / "build" / "soc-host" / "apps" / "fido2" / "host" / "falcon-accel-fido2-soc",
                 REPO / "build" / "test-native" / "apps" / "fido2" / "host" / "falcon-accel-fido2-soc"):
        if cand.exists():
            return str(cand)
    raise FileNotFoundError("falcon-accel-fido2-soc not built (set FIDO2_SOC_BRIDGE)")


def target_args() -> list:
    """Options the target adds after the daemon's own."""
    if TARGET == "daemon":
        return []
    extra = ["--core", "host"] if TARGET == "soc-host" else []
    return extra + shlex.split(os.environ.get("FIDO2_SOC_ARGS", ""))


class Daemon:
    """One falcon-accel-fido2 process on a state directory."""

    def __init__(self, state: Path, port: int, reply_port: int, up: str = "auto",
                 exe: str = None, extra: list = None, wrap: list = None,
                 stdin=None):
        """up: the --user-presence value, or None to give no such option
        (the daemon's default); exe/extra: a given binary and options
        instead of the target's; wrap: a command line that runs the daemon
        (its argv appended); stdin: the daemon's standard input (default:
        a pipe for prompt, /dev/null otherwise)."""
        self.state, self.port, self.reply_port, self.up = state, port, reply_port, up
        self.exe, self.extra, self.wrap, self.stdin = exe, extra, wrap, stdin
        self.proc = None
        self.start_lines = []

    def argv(self) -> list:
        up = [] if self.up is None else ["--user-presence", self.up]
        return ((self.wrap or []) +
                [self.exe or daemon_path(), "--state", str(self.state), "--port", str(self.port),
                 "--reply-port", str(self.reply_port)] + up
                + (target_args() if self.extra is None else list(self.extra)))

    def start(self, timeout: float = 30.0) -> None:
        stdin = self.stdin
        if stdin is None:
            stdin = subprocess.PIPE if self.up == "prompt" else subprocess.DEVNULL
        self.start_lines = []
        self.proc = subprocess.Popen(
            self.argv(), stdin=stdin,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                raise RuntimeError("falcon-accel-fido2 exited: rc=%s: %s"
                                   % (self.proc.wait(), "".join(self.start_lines)))
            self.start_lines.append(line)
            if "ready on" in line:
                return
        raise RuntimeError("falcon-accel-fido2 did not start")

    def answer(self, line: str) -> None:
        """Types a line at the --user-presence prompt."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill9(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> int:
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stderr):
            if f:
                f.close()
        return self.proc.returncode
