"""Durability: the daemon is killed with SIGKILL at random instants while it
creates discoverable credentials and signs assertions; after every restart
each credential it acknowledged must still be there (found without an
allow list under its own rpId, with its user handle), the store must load
(no torn or corrupt file) and every signature counter must exceed all
counters seen before the kill. A second test kills it around
authenticatorReset: after the restart the credentials made before the Reset
all work or are all gone (never a mix), gone if the Reset was acknowledged.
FIDO2_KILL_ROUNDS, FIDO2_KILL_RESET_ROUNDS: rounds of each (12, 8)."""
from __future__ import annotations

import hashlib
import os
import random
import threading

from fido2.ctap import CtapError
from fido2.ctap2 import Ctap2

import fido2_udp
from conftest import next_ports
from fido2_udp import ALG_FNDSA512

ROUNDS = int(os.environ.get("FIDO2_KILL_ROUNDS", "12"))
PER_ROUND = 6


def counter(auth_data) -> int:
    return int.from_bytes(bytes(auth_data)[33:37], "big")


def test_kill9_keeps_acknowledged_credentials_and_counter(tmp_path):
    port, reply = next_ports()
    d = fido2_udp.Daemon(tmp_path / "state", port, reply)
    rnd = random.Random(20261123)
    acked = {}          # rpId -> (user handle, credential id, public key)
    max_counter = 0
    kills_mid_request = 0
    cdh = hashlib.sha256(b"kill test").digest()
    for rnd_i in range(ROUNDS):
        d.start()
        assert not list((tmp_path / "state").glob("*.tmp")), "tmp file survived start"
        dev = fido2_udp.open_device(port, reply, alive=d.alive)
        ctap = Ctap2(dev)
        # Everything acknowledged so far is present, counters move forward.
        for rp, (uid, cid, pub) in acked.items():
            a = ctap.get_assertion(rp, cdh)
            assert a.user["id"] == uid, rp
            assert a.credential["id"] == cid, rp
            assert counter(a.auth_data) > max_counter
            max_counter = counter(a.auth_data)
            pub.verify(bytes(a.auth_data) + cdh, a.signature)
        killer = threading.Timer(rnd.uniform(0.005, 0.25), d.kill9)
        killer.start()
        made = 0
        try:
            while True:
                if made < PER_ROUND:
                    rp = "r%d-%d.example" % (rnd_i, made)
                    uid = b"user-%d-%d" % (rnd_i, made)
                    att = ctap.make_credential(
                        cdh, {"id": rp, "name": rp}, {"id": uid, "name": "u"},
                        [{"type": "public-key", "alg": ALG_FNDSA512}],
                        options={"rk": True})
                    cd = att.auth_data.credential_data
                    assert counter(att.auth_data) > max_counter
                    max_counter = counter(att.auth_data)
                    acked[rp] = (uid, cd.credential_id, cd.public_key)
                    made += 1
                else:
                    rp = rnd.choice(sorted(acked))
                    a = ctap.get_assertion(rp, cdh)
                    assert counter(a.auth_data) > max_counter
                    max_counter = counter(a.auth_data)
        except (ConnectionError, OSError, CtapError) as e:
            assert not d.alive(), "request failed while the daemon runs: %r" % e
            kills_mid_request += 1
        killer.join()
        d.kill9()
        dev.close()
        d.stop()
    assert kills_mid_request == ROUNDS
    assert len(acked) > 0
    # Final check after the last kill.
    d.start()
    dev = fido2_udp.open_device(port, reply, alive=d.alive)
    ctap = Ctap2(dev)
    for rp, (uid, cid, pub) in acked.items():
        a = ctap.get_assertion(rp, cdh)
        assert a.user["id"] == uid and a.credential["id"] == cid
        assert counter(a.auth_data) > max_counter
        max_counter = counter(a.auth_data)
    dev.close()
    d.stop()


RESET_ROUNDS = int(os.environ.get("FIDO2_KILL_RESET_ROUNDS", "8"))
RESET_CREDS = 2


def _assertion_outcome(ctap, rp, uid, cid, pub, cdh, allow: bool):
    """'present' (found and verified: its counter) or 'absent' (NO_CREDENTIALS)."""
    try:
        a = ctap.get_assertion(
            rp, cdh, [{"type": "public-key", "id": cid}] if allow else None)
    except CtapError as e:
        assert e.code == CtapError.ERR.NO_CREDENTIALS, (rp, e)
        return "absent", None
    assert a.credential["id"] == cid, rp
    if not allow:
        assert a.user["id"] == uid, rp
    pub.verify(bytes(a.auth_data) + cdh, a.signature)
    return "present", counter(a.auth_data)


def test_kill9_during_reset_is_all_or_nothing(tmp_path):
    """Reset interrupted by SIGKILL: after the restart either every
    credential made before it works (found without an allow list, with its
    user handle, and with its ID in an allow list) or none does; a Reset
    acknowledged before the kill must have taken effect. Counters never go
    back; no *.tmp file is left."""
    port, reply = next_ports()
    state = tmp_path / "state"
    d = fido2_udp.Daemon(state, port, reply)
    rnd = random.Random(20261207)
    cdh = hashlib.sha256(b"kill reset test").digest()
    max_counter = 0
    live = {}           # rpId -> (user handle, credential id, public key)
    outcomes = {"committed": 0, "not committed": 0, "acknowledged": 0}
    seq = 0

    def bump(c):
        nonlocal max_counter
        assert c > max_counter, "counter went back: %d after %d" % (c, max_counter)
        max_counter = c

    def make(ctap, tag):
        nonlocal seq
        seq += 1
        rp = "reset-%s-%d.example" % (tag, seq)
        uid = b"reset-user-%d" % seq
        att = ctap.make_credential(
            cdh, {"id": rp, "name": rp}, {"id": uid, "name": "u"},
            [{"type": "public-key", "alg": ALG_FNDSA512}], options={"rk": True})
        bump(counter(att.auth_data))
        cd = att.auth_data.credential_data
        return rp, (uid, cd.credential_id, cd.public_key)

    def start():
        d.start()       # raises if the daemon refuses the state directory
        assert not list(state.glob("*.tmp")), "tmp file survived start"
        dev = fido2_udp.open_device(port, reply, alive=d.alive)
        return dev, Ctap2(dev)

    def survey(ctap):
        """Outcome of every credential in live: one of 'present', 'absent'."""
        seen = set()
        for rp, (uid, cid, pub) in sorted(live.items()):
            for allow in (False, True):
                o, c = _assertion_outcome(ctap, rp, uid, cid, pub, cdh, allow)
                if c is not None:
                    bump(c)
                seen.add(o)
        if not seen:
            return "absent"
        assert len(seen) == 1, "a mix after an interrupted Reset: %s" % sorted(seen)
        return seen.pop()

    for rnd_i in range(RESET_ROUNDS):
        dev, ctap = start()
        if len(live) + RESET_CREDS > 8:
            # Rounds without a commit pile credentials up: an uninterrupted
            # Reset keeps the count within a small store's (the SoC flash
            # store indexes 16).
            ctap.reset()
            assert survey(ctap) == "absent"
            live.clear()
        for _ in range(RESET_CREDS):
            rp, cred = make(ctap, rnd_i)
            live[rp] = cred
        assert survey(ctap) == "present"
        # The kill: right after the Reset request is written (every third
        # round), or by a timer started just before it (0..5 ms or 0..50 ms).
        mode = rnd_i % 3
        killer = None
        if mode == 0:
            conn = dev._connection
            write = conn.write_packet

            def write_then_kill(data, write=write):
                write(data)
                d.kill9()
            conn.write_packet = write_then_kill
        else:
            killer = threading.Timer(rnd.uniform(0, 0.005 if mode == 1 else 0.05), d.kill9)
            killer.start()
        acked = False
        try:
            ctap.reset()
            acked = True
        except (ConnectionError, OSError, CtapError) as e:
            assert not d.alive(), "Reset failed while the daemon runs: %r" % e
        if killer is not None:
            killer.join()
        d.kill9()
        dev.close()
        d.stop()

        dev, ctap = start()
        o = survey(ctap)
        if acked:
            outcomes["acknowledged"] += 1
            assert o == "absent", "an acknowledged Reset did not take effect"
        if o == "absent":
            outcomes["committed"] += 1
            live.clear()
        else:
            outcomes["not committed"] += 1
        dev.close()
        d.stop()
    print("kill during Reset: %d rounds, %d committed (%d acknowledged before the kill),"
          " %d not committed" % (RESET_ROUNDS, outcomes["committed"],
                                 outcomes["acknowledged"], outcomes["not committed"]))

    # A Reset that is not interrupted: no credential is left, new ones can
    # be made, and all of this holds across a restart.
    dev, ctap = start()
    for _ in range(RESET_CREDS):
        rp, cred = make(ctap, "final")
        live[rp] = cred
    ctap.reset()
    assert survey(ctap) == "absent"
    old = dict(live)
    live.clear()
    rp, cred = make(ctap, "after")
    live[rp] = cred
    assert survey(ctap) == "present"
    dev.close()
    assert d.stop() == 0
    dev, ctap = start()
    assert survey(ctap) == "present"
    live = old
    assert survey(ctap) == "absent"
    dev.close()
    assert d.stop() == 0
