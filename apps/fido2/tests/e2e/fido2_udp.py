"""python-fido2 over UDP to falcon-accel-fido2, and FN-DSA COSE keys.

- ``UdpCtapHidConnection``: a python-fido2 ``CtapHidConnection`` whose
  reports are UDP datagrams (64 bytes each): sent to 127.0.0.1:port,
  received on 127.0.0.1:reply_port (the daemon's convention).
- ``FNDSA512`` / ``FNDSA1024``: ``CoseKey`` subclasses (key type AKP, public
  key under -1) that verify FN-DSA (fn-dsa 0.4.0: FA_FNDSA_SIG_SIZE-byte
  signatures, pure, empty context) over the signed data: with the
  falcon_accel Python package when the installed one has FN-DSA
  (``verify(..., scheme="fn-dsa")``), else with the command-line tool of
  the build (``falcon-accel verify --scheme fn-dsa``, found like the
  daemon: ``cli_path()``). ``FIDO2_FNDSA_VERIFIER=package|cli`` forces
  one. ``FALCON512_R3`` / ``FALCON1024_R3``: the same for round-3 Falcon
  under the key's private-use identifiers (compressed signatures,
  ``falcon_accel.verify``). The algorithm identifiers are read from
  apps/fido2/core/fido2_cose.h, the one place that holds them.
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
import inspect
import shlex
import signal
import socket
import subprocess
import tempfile
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
ALG_FALCON512_R3 = _COSE["FIDO2_COSE_ALG_FALCON512_R3"]
ALG_FALCON1024_R3 = _COSE["FIDO2_COSE_ALG_FALCON1024_R3"]
PUB_SIZE = {9: 897, 10: 1793}           # both schemes
FNDSA_SIG_SIZE = {9: 666, 10: 1280}     # FA_FNDSA_SIG_SIZE


def _package_has_fndsa() -> bool:
    try:
        return "scheme" in inspect.signature(falcon_accel.verify).parameters
    except (TypeError, ValueError):
        return False


def fndsa_verifier() -> str:
    """Which FN-DSA verifier the COSE classes use: "package" (the falcon_accel
    Python package, when the installed one has FN-DSA) or "cli" (the build's
    falcon-accel); FIDO2_FNDSA_VERIFIER forces one."""
    v = os.environ.get("FIDO2_FNDSA_VERIFIER")
    if v:
        if v not in ("package", "cli"):
            raise ValueError("FIDO2_FNDSA_VERIFIER must be package or cli, not %r" % v)
        return v
    return "package" if _package_has_fndsa() else "cli"


def cli_path() -> str:
    """The build's falcon-accel: $FIDO2_CLI, else the tools/ directory of the
    build tree the daemon (or bridge) comes from, else the usual builds."""
    p = os.environ.get("FIDO2_CLI")
    if p:
        return p
    cands = []
    try:
        # BUILD/apps/fido2/host/falcon-accel-fido2[-soc] -> BUILD/tools/falcon-accel
        cands.append(Path(daemon_path()).resolve().parents[3] / "tools" / "falcon-accel")
    except (FileNotFoundError, IndexError):
        pass
    cands += [REPO / "build" / d / "tools" / "falcon-accel"
              for d in ("fido2-e2e", "test-native", "soc-host")]
    cands.append(REPO / "build" / "tools" / "falcon-accel")
    for c in cands:
        if c.exists():
            return str(c)
    raise FileNotFoundError("falcon-accel (the CLI) not built: FN-DSA signatures are "
                            "verified with it (set FIDO2_CLI)")


def fndsa_verify(pub: bytes, message: bytes, signature: bytes) -> bool:
    """FN-DSA verification, pure, empty context (fn-dsa 0.4.0): True or
    False, ValueError for a key or signature that does not decode."""
    if fndsa_verifier() == "package":
        try:
            return falcon_accel.verify(pub, message, signature, scheme="fn-dsa")
        except falcon_accel.FalconError as e:
            # a key or signature that does not decode as FN-DSA (a round-3
            # one, a tampered one): invalid, as the CLI's exit status 2
            raise ValueError("FN-DSA: %s" % e) from e
    with tempfile.TemporaryDirectory(prefix="fido2-fndsa-") as d:
        files = {}
        for name, data in (("pk", pub), ("sig", signature), ("in", message)):
            files[name] = os.path.join(d, name)
            with open(files[name], "wb") as f:
                f.write(data)
        out = subprocess.run([cli_path(), "verify", "--scheme", "fn-dsa",
                              "--pk", files["pk"], "--sig", files["sig"],
                              "--in", files["in"]],
                             capture_output=True, text=True, timeout=60)
    if out.returncode == 0:
        return True
    if out.returncode == 1:
        return False
    # 2: a key or signature that does not decode (a tampered one) -- or a
    # CLI that cannot verify at all, which the positive checks would show
    raise ValueError("FN-DSA: falcon-accel verify: %s" % out.stderr.strip())


class _AkpKey(CoseKey):
    LOGN = 0
    NAME = ""

    def _pub(self) -> bytes:
        if self.get(1) != KTY_AKP:
            raise ValueError("%s COSE key: kty must be AKP (%d)" % (self.NAME, KTY_AKP))
        pub = self.get(LABEL_PUB)
        if (not isinstance(pub, (bytes, bytearray)) or len(pub) != PUB_SIZE[self.LOGN]
                or pub[0] != self.LOGN):
            raise ValueError("%s COSE key: pub is not a %s public key"
                             % (self.NAME, self.NAME))
        return bytes(pub)


class _FnDsaKey(_AkpKey):
    def verify(self, message: bytes, signature: bytes) -> None:
        pub = self._pub()
        # FN-DSA signatures: fixed length, header 0x30 + logn.
        if len(signature) != FNDSA_SIG_SIZE[self.LOGN] or signature[0] != 0x30 + self.LOGN:
            raise ValueError("%s signature: not %d bytes with header 0x%02x"
                             % (self.NAME, FNDSA_SIG_SIZE[self.LOGN], 0x30 + self.LOGN))
        if not fndsa_verify(pub, bytes(message), bytes(signature)):
            raise ValueError("%s signature does not verify" % self.NAME)


class FNDSA512(_FnDsaKey):
    ALGORITHM = ALG_FNDSA512
    LOGN = 9
    NAME = "FN-DSA-512"


class FNDSA1024(_FnDsaKey):
    ALGORITHM = ALG_FNDSA1024
    LOGN = 10
    NAME = "FN-DSA-1024"


class _FalconR3Key(_AkpKey):
    def verify(self, message: bytes, signature: bytes) -> None:
        pub = self._pub()
        # Compressed signatures only (header 0x30 + logn).
        if len(signature) < 1 or signature[0] != 0x30 + self.LOGN:
            raise ValueError("%s signature: not the compressed format" % self.NAME)
        if not falcon_accel.verify(pub, bytes(message), bytes(signature), format="compressed"):
            raise ValueError("%s signature does not verify" % self.NAME)


class FALCON512_R3(_FalconR3Key):
    ALGORITHM = ALG_FALCON512_R3
    LOGN = 9
    NAME = "Falcon-512 (round 3)"


class FALCON1024_R3(_FalconR3Key):
    ALGORITHM = ALG_FALCON1024_R3
    LOGN = 10
    NAME = "Falcon-1024 (round 3)"


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
