"""What an attacker's or a careless user's tries found, each kept fixed:

- a state directory whose records lack ``state.bin`` is refused at start-up
  (naming the file and what to do), nothing in it is deleted, and the key
  works again once ``state.bin`` is back;
- the daemon never blocks on its own log: with stderr a pipe nobody reads,
  thousands of malformed datagrams and WINKs later it still answers;
- without ``--user-presence`` the daemon asks (prompt) and, with no
  terminal, denies; ``auto`` prints a warning; channel IDs are not
  1, 2, 3...;
- a read-only or full state directory is refused at start-up with the
  reason; a disk that fills while serving is named in the log;
- ``--port`` equal to ``--reply-port`` is refused (both daemons);
- odd rpIds (empty, with NUL, 5,000 bytes, upper case, an IP address) get
  CTAP1_ERR_INVALID_PARAMETER and the key keeps serving.

The read-only and full directories are tmpfs mounts in a mount namespace
of the daemon's own (``unshare -m``, root); the test reaches them through
``/proc/PID/root``.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import socket
import struct
import subprocess
import time
from pathlib import Path

import pytest
from fido2.ctap import CtapError
from fido2.ctap2 import Ctap2

import fido2_udp
from conftest import next_ports
from fido2_udp import ALG_FNDSA512

pytestmark = pytest.mark.skipif(fido2_udp.TARGET != "daemon",
                                reason="the host daemon's own start-up and log")

CDH = hashlib.sha256(b"hardening").digest()
_started = []


def new_daemon(*args, **kw):
    """A Daemon that the test's teardown kills if it is still running (a
    failing assertion must not leave a daemon holding its ports)."""
    d = fido2_udp.Daemon(*args, **kw)
    _started.append(d)
    return d


@pytest.fixture(autouse=True)
def _reap_daemons():
    yield
    while _started:
        d = _started.pop()
        if d.proc is not None and d.proc.poll() is None:
            d.kill9()
PARAMS = [{"type": "public-key", "alg": ALG_FNDSA512}]


def make_rk(ctap, rp, uid):
    att = ctap.make_credential(CDH, {"id": rp, "name": rp}, {"id": uid, "name": "u"},
                               PARAMS, options={"rk": True})
    return att.auth_data.credential_data


def run_refused(argv, timeout=30):
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stderr


def init_channel(sock, dest, nonce=b"12345678"):
    pkt = struct.pack(">IBH", 0xFFFFFFFF, 0x86, 8) + nonce
    sock.sendto(pkt.ljust(64, b"\0"), dest)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        data = sock.recv(64)
        if data[4] == 0x86 and data[7:15] == nonce:
            return struct.unpack(">I", data[15:19])[0]
    raise AssertionError("no INIT answer")


def test_missing_state_is_refused_and_nothing_is_deleted(tmp_path):
    port, reply = next_ports()
    state = tmp_path / "state"
    d = new_daemon(state, port, reply)
    d.start()
    dev = fido2_udp.open_device(port, reply, alive=d.alive)
    cd = make_rk(Ctap2(dev), "keep.example", b"keeper")
    dev.close()
    assert d.stop() == 0
    records = sorted(p.name for p in state.glob("cred-*.bin"))
    assert len(records) == 1
    (state / "state.bin").rename(tmp_path / "state.bin.backup")
    rc, err = run_refused(d.argv())
    assert rc == 2, err
    assert "state.bin is missing" in err and "1 credential record" in err, err
    assert "Restore state.bin" in err, err
    assert sorted(p.name for p in state.glob("cred-*.bin")) == records
    assert not (state / "state.bin").exists(), "a new device secret was made"
    # Restored: the credential is back, signing as before.
    (tmp_path / "state.bin.backup").rename(state / "state.bin")
    d.start()
    dev = fido2_udp.open_device(port, reply, alive=d.alive)
    a = Ctap2(dev).get_assertion("keep.example", CDH)
    assert a.credential["id"] == cd.credential_id
    cd.public_key.verify(bytes(a.auth_data) + CDH, a.signature)
    dev.close()
    assert d.stop() == 0


def test_record_of_another_epoch_is_refused(tmp_path):
    """A partial restore: records of one key beside the state of another."""
    port, reply = next_ports()
    a_dir, b_dir = tmp_path / "a", tmp_path / "b"
    for sd in (a_dir, b_dir):
        d = new_daemon(sd, port, reply)
        d.start()
        dev = fido2_udp.open_device(port, reply, alive=d.alive)
        ctap = Ctap2(dev)
        make_rk(ctap, "mix.example", sd.name.encode())
        if sd == b_dir:
            ctap.reset()           # b is at epoch 2
        dev.close()
        assert d.stop() == 0
    rec = next(a_dir.glob("cred-*.bin"))
    shutil.copy(rec, b_dir / rec.name)
    rc, err = run_refused(new_daemon(b_dir, port, reply).argv())
    assert rc == 2 and rec.name in err and "epoch 1" in err and "epoch 2" in err, err
    assert (b_dir / rec.name).exists()


def test_log_never_blocks_the_request_loop(tmp_path):
    port, reply = next_ports()
    d = new_daemon(tmp_path / "state", port, reply)
    d.start()          # from here on nobody reads the daemon's stderr pipe
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", reply))
    s.settimeout(5)
    dest = ("127.0.0.1", port)
    cid = init_channel(s, dest)
    wink = struct.pack(">IBH", cid, 0x88, 0).ljust(64, b"\0")
    s.setblocking(False)
    for i in range(6000):
        s.sendto(b"x" if i % 3 else b"", dest)
        if i % 4 == 0:
            s.sendto(wink, dest)
        if i % 50 == 0:
            time.sleep(0.002)      # let the daemon keep up (UDP drops otherwise)
            try:
                while True:
                    s.recv(64)
            except BlockingIOError:
                pass
    s.settimeout(5)
    time.sleep(0.5)
    try:
        while True:
            s.recv(64)
    except (BlockingIOError, socket.timeout):
        pass
    s.settimeout(5)
    # Still answering: INIT, and a PING on the new channel.
    cid2 = init_channel(s, dest, b"87654321")
    s.sendto(struct.pack(">IBH", cid2, 0x81, 4).ljust(7, b"\0")[:7] + b"ping"
             + b"\0" * 53, dest)
    deadline = time.monotonic() + 5
    while True:
        data = s.recv(64)
        if data[:4] == struct.pack(">I", cid2) and data[4] == 0x81:
            assert data[7:11] == b"ping"
            break
        assert time.monotonic() < deadline
    s.close()
    assert d.alive()
    # What it logged: counts, not a line per datagram or WINK.
    d.proc.terminate()
    _, out = d.proc.communicate(timeout=10)
    assert d.proc.returncode == 0
    lines = out.splitlines()
    assert len(lines) < 20, "%d log lines for 6,000 datagrams" % len(lines)
    assert any("malformed datagram(s) dropped" in ln for ln in lines), out
    d.proc = None


def test_default_is_prompt_and_denies_without_a_terminal(tmp_path):
    port, reply = next_ports()
    d = new_daemon(tmp_path / "state", port, reply, up=None)
    d.start()
    text = "".join(d.start_lines)
    assert "user presence prompt" in text and "not a terminal" in text, text
    dev = fido2_udp.open_device(port, reply, alive=d.alive)
    ctap = Ctap2(dev)
    with pytest.raises(CtapError) as e:
        make_rk(ctap, "deny.example", b"nobody")
    assert e.value.code == CtapError.ERR.OPERATION_DENIED
    with pytest.raises(CtapError) as e:
        ctap.reset()
    assert e.value.code == CtapError.ERR.OPERATION_DENIED
    assert not list((tmp_path / "state").glob("cred-*.bin"))
    dev.close()
    assert d.stop() == 0


def test_auto_warns(tmp_path):
    port, reply = next_ports()
    d = new_daemon(tmp_path / "state", port, reply, up="auto")
    d.start()
    assert any("WARNING" in ln and "auto" in ln for ln in d.start_lines), d.start_lines
    assert d.stop() == 0


def test_channel_ids_are_not_predictable(tmp_path):
    port, reply = next_ports()
    d = new_daemon(tmp_path / "state", port, reply)
    d.start()
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", reply))
    s.settimeout(5)
    cids = [init_channel(s, ("127.0.0.1", port), b"nonce%03d" % i) for i in range(8)]
    s.close()
    assert len(set(cids)) == 8
    assert cids[0] not in (1, 2), cids
    assert not any(b - a == 1 for a, b in zip(cids, cids[1:])), cids
    assert d.stop() == 0


def test_same_port_and_reply_port_refused(tmp_path):
    port, _ = next_ports()
    d = new_daemon(tmp_path / "state", port, port)
    rc, err = run_refused(d.argv())
    assert rc == 2 and "--reply-port are both" in err, err
    bridge = Path(fido2_udp.daemon_path()).with_name("falcon-accel-fido2-soc")
    if not bridge.exists() and os.environ.get("CI") != "true":
        pytest.skip("falcon-accel-fido2-soc not built beside the daemon")
    rc, err = run_refused([str(bridge), "--state", str(tmp_path / "b"), "--port",
                           str(port), "--reply-port", str(port), "--user-presence", "auto"])
    assert rc == 2 and "--reply-port are" in err, err
    # The bridge starts only with --user-presence auto said explicitly.
    rc, err = run_refused([str(bridge), "--state", str(tmp_path / "b")])
    assert rc == 2 and "--user-presence auto" in err, err


def test_odd_rp_ids_rejected_and_serving_continues(daemon):
    dev = fido2_udp.open_device(daemon.port, daemon.reply_port, alive=daemon.alive)
    ctap = Ctap2(dev)
    for rp in ("", "a\0b.example", "x" * 5000, "Example.COM", "127.0.0.1", "a..b",
               "evil.example.", "sp ace.example"):
        with pytest.raises(CtapError) as e:
            ctap.make_credential(CDH, {"id": rp, "name": "r"}, {"id": b"u", "name": "u"},
                                 PARAMS)
        assert e.value.code == CtapError.ERR.INVALID_PARAMETER, repr(rp[:20])
        with pytest.raises(CtapError) as e:
            ctap.get_assertion(rp, CDH)
        assert e.value.code == CtapError.ERR.INVALID_PARAMETER, repr(rp[:20])
    assert not list(daemon.state.glob("cred-*.bin"))
    make_rk(ctap, "fine.example", b"ok")
    assert ctap.get_assertion("fine.example", CDH).user["id"] == b"ok"
    dev.close()


# --- read-only and full state directories (tmpfs in a mount namespace) ----

def ns_wrap(mnt: Path, setup: str) -> list:
    """Runs the daemon in a mount namespace with a tmpfs on mnt, after the
    shell commands of setup (the daemon keeps the process: exec)."""
    return ["unshare", "-m", "sh", "-c",
            "mount -t tmpfs -o size=%s tmpfs '%s' && %s && exec \"$@\""
            % ("256k", mnt, setup), "sh"]


def made_state(tmp_path: Path, port: int, reply: int) -> Path:
    """A state directory with one discoverable credential."""
    src = tmp_path / "made"
    d = new_daemon(src, port, reply)
    d.start()
    dev = fido2_udp.open_device(port, reply, alive=d.alive)
    make_rk(Ctap2(dev), "ro.example", b"ro")
    dev.close()
    assert d.stop() == 0
    return src


@pytest.mark.parametrize("existing", [False, True])
def test_read_only_state_dir_refused(tmp_path, existing):
    port, reply = next_ports()
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    copy = ("cp -a '%s' '%s/state'" % (made_state(tmp_path, port, reply), mnt)
            if existing else "mkdir '%s/state'" % mnt)
    d = new_daemon(mnt / "state", port, reply,
                         wrap=ns_wrap(mnt, "%s && mount -o remount,ro '%s'" % (copy, mnt)))
    rc, err = run_refused(d.argv())
    assert rc == 2, err
    assert "refusing to start" in err and "Read-only file system" in err, err
    assert str(mnt / "state") in err, err


@pytest.mark.parametrize("existing", [False, True])
def test_full_state_dir_refused(tmp_path, existing):
    port, reply = next_ports()
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    copy = ("cp -a '%s' '%s/state'" % (made_state(tmp_path, port, reply), mnt)
            if existing else "mkdir '%s/state'" % mnt)
    fill = "%s && { dd if=/dev/zero of='%s/fill' bs=4k 2>/dev/null; true; }" % (copy, mnt)
    d = new_daemon(mnt / "state", port, reply, wrap=ns_wrap(mnt, fill))
    rc, err = run_refused(d.argv())
    assert rc == 2, err
    assert "refusing to start" in err and "No space left on device" in err, err


def test_disk_full_while_serving_is_logged(tmp_path):
    port, reply = next_ports()
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    d = new_daemon(mnt / "state", port, reply, wrap=ns_wrap(mnt, "true"))
    d.start()
    dev = fido2_udp.open_device(port, reply, alive=d.alive)
    ctap = Ctap2(dev)
    make_rk(ctap, "before.example", b"a")
    # Fill the daemon's tmpfs through its own view of the mounts.
    view = Path("/proc/%d/root" % d.proc.pid) / str(mnt).lstrip("/")
    with open(view / "fill", "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError:
            pass
    with pytest.raises(CtapError) as e:
        make_rk(ctap, "after.example", b"b")
    assert e.value.code == CtapError.ERR.OTHER
    # Still serving what it has.
    assert ctap.get_assertion("before.example", CDH).user["id"] == b"a"
    dev.close()
    d.proc.terminate()
    _, err = d.proc.communicate(timeout=10)
    d.proc = None
    assert "request(s) failed to write the state" in err and "No space left" in err, err
    assert str(mnt / "state") in err, err
