"""A key state from before FN-DSA: its round-3 credentials keep signing
round 3, new -54 / -55 credentials are FN-DSA.

Before FN-DSA the key made round-3 Falcon credentials under -54 / -55:
credential IDs of version 0x01 wrapping the 32-byte seed of fa_keygen, and
discoverable credentials stored in the first record layout (file store:
FAF2CRD1; page store: record type 2). This test writes such a state the
way that version of the key wrote it (the device secret, a discoverable
record with its round-3 key, a non-discoverable ID wrapping a seed), with
the key pairs made here (falcon_accel.keygen from the seed, which is what
the key's fa_keygen does with a SHAKE256 PRNG seeded with it), then starts
the current key on it: both old credentials sign round-3 compressed
signatures that verify under the public keys the relying party registered
then (and not as FN-DSA), with counters above the stored reservation; a
new (discoverable) credential for -54 is FN-DSA; a restart changes
nothing, and the old
record is left as it was (the file store) until its account's credential
is replaced. Targets: the daemon (file store) and the SoC bridge (page
store image), as the rest of the suite.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import struct

import falcon_accel
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from fido2.ctap2 import Ctap2

import fido2_udp
from conftest import next_ports
from fido2_udp import ALG_FNDSA512, FNDSA_SIG_SIZE

RP_ID = "example.com"
RP_HASH = hashlib.sha256(RP_ID.encode()).digest()
WRAP_LABEL = b"falcon-accel fido2 credential wrap v1"
R3_SK_MAX = 2305              # FA_PRIVKEY_SIZE(10): the first layout's key field
RESERVED = 128                # the stored counter reservation


def wrap_id(wrap_key: bytes, scheme: int, logn: int, seed: bytes) -> bytes:
    """scheme | logn | nonce(12) | ChaCha20-Poly1305(seed) | tag, with the
    rpId hash and the two header bytes as associated data."""
    nonce = os.urandom(12)
    ct = ChaCha20Poly1305(wrap_key).encrypt(nonce, seed, RP_HASH + bytes([scheme, logn]))
    return bytes([scheme, logn]) + nonce + ct


def v1_record(cred_id: bytes, user: bytes, sk: bytes, epoch: int, created: int) -> bytes:
    """fido2_cred_serialize of the first layout: id, rpIdHash, user id,
    name, display name (at their maximum sizes), the lengths and logn,
    epoch, created, the round-3 private key in FA_PRIVKEY_SIZE(10) bytes."""
    name = user.decode().encode()
    return (cred_id + RP_HASH + user.ljust(64, b"\0") + name.ljust(64, b"\0")
            + name.title().ljust(64, b"\0")
            + bytes([len(user), len(name), len(name), 9])
            + struct.pack("<II", epoch, created) + sk.ljust(R3_SK_MAX, b"\0"))


def write_file_state(d, master: bytes, record: bytes, user: bytes) -> None:
    d.mkdir(parents=True)
    st = b"FAF2STA2" + master + struct.pack("<III", RESERVED, 1, 0)
    (d / "state.bin").write_bytes(st + hashlib.sha256(st).digest())
    h = hashlib.sha256(RP_HASH + bytes([len(user)]) + user).digest()
    rec = b"FAF2CRD1" + record
    (d / ("cred-%s.bin" % h[:16].hex())).write_bytes(rec + hashlib.sha256(rec).digest())


def flash_record(rtype: int, payload: bytes) -> bytes:
    hdr = b"FA2R" + struct.pack("<HH", rtype, len(payload))
    rec = hdr + payload + hashlib.sha256(hdr + payload).digest() + bytes(4)
    return rec + b"\xff" * (-len(rec) % 8)


def write_flash_state(d, master: bytes, record: bytes) -> None:
    """The bridge's image (apps/fido2/fw/fido2_soc.h): the expanded-key
    cache region (erased: formatted at start), then the page store's
    flash: bank 0 committed (generation 1) with the state and the
    credential record of type 2."""
    flash = bytearray(b"\xff" * 0x20000)
    log = (b"FA2BANK1" + struct.pack("<II", 1, 0)
           + flash_record(1, master + struct.pack("<III", RESERVED, 1, 0))
           + flash_record(2, record))
    flash[:len(log)] = log
    d.mkdir(parents=True)
    (d / "flash.bin").write_bytes(b"\xff" * 0x40000 + bytes(flash))


def r3_verifies(pk: bytes, msg: bytes, sig: bytes) -> bool:
    try:
        return falcon_accel.verify(pk, msg, sig, format="compressed")
    except falcon_accel.FalconError:
        return False


def fndsa_verifies(pk: bytes, msg: bytes, sig: bytes) -> bool:
    try:
        return fido2_udp.fndsa_verify(pk, msg, sig)
    except ValueError:
        return False


def test_state_from_before_fndsa_keeps_signing_round3(tmp_path):
    master = os.urandom(32)
    wrap_key = hmac.new(master, WRAP_LABEL, hashlib.sha256).digest()
    # discoverable: the record holds the key; non-discoverable: the ID only
    s_rk, s_nrk = os.urandom(32), os.urandom(32)
    kp_rk, kp_nrk = falcon_accel.keygen(9, seed=s_rk), falcon_accel.keygen(9, seed=s_nrk)
    id_rk, id_nrk = wrap_id(wrap_key, 1, 9, s_rk), wrap_id(wrap_key, 1, 9, s_nrk)
    record = v1_record(id_rk, b"olduser", kp_rk.secret_key, 1, 5)
    assert len(record) == 2603
    state = tmp_path / "state"
    if fido2_udp.TARGET == "daemon":
        write_file_state(state, master, record, b"olduser")
    else:
        write_flash_state(state, master, record)
    before = state.joinpath("state.bin" if fido2_udp.TARGET == "daemon"
                            else "flash.bin").read_bytes()
    assert before

    port, reply = next_ports()
    d = fido2_udp.Daemon(state, port, reply)
    d.start(timeout=120)
    try:
        for run in range(2):      # then again after a restart
            dev = fido2_udp.open_device(port, reply, alive=d.alive)
            ctap = Ctap2(dev)
            counter = RESERVED
            for cred_id, pk, allow in ((id_nrk, kp_nrk.public_key, True),
                                       (id_rk, kp_rk.public_key, True),
                                       (id_rk, kp_rk.public_key, False)):
                cdh = hashlib.sha256(b"old %d %s" % (run, cred_id[:4].hex().encode())).digest()
                a = ctap.get_assertion(
                    RP_ID, cdh,
                    allow_list=[{"type": "public-key", "id": cred_id}] if allow else None)
                if not allow and run == 1:
                    # the new discoverable credential comes first (newest)
                    assert a.number_of_credentials == 2
                    a = ctap.get_next_assertion()
                assert a.credential["id"] == cred_id
                if cred_id == id_rk:
                    assert a.user["id"] == b"olduser"
                signed = bytes(a.auth_data) + cdh
                sig = bytes(a.signature)
                assert sig[0] == 0x39
                assert r3_verifies(pk, signed, sig), "old credential: round 3"
                assert not fndsa_verifies(pk, signed, sig)
                assert not r3_verifies(pk, bytes(a.auth_data) + bytes(32), sig)
                assert a.auth_data.counter > counter
                counter = a.auth_data.counter
            if run == 0:
                # a new credential for -54 is FN-DSA, beside the old ones
                cdh = hashlib.sha256(b"new").digest()
                mc = ctap.make_credential(
                    cdh, {"id": RP_ID, "name": "RP"},
                    {"id": b"newuser", "name": "newuser"},
                    [{"type": "public-key", "alg": ALG_FNDSA512}], options={"rk": True})
                new = mc.auth_data.credential_data
                assert isinstance(new.public_key, fido2_udp.FNDSA512)
                assert new.credential_id[0] == 2      # the FN-DSA ID version
                new.public_key.verify(bytes(mc.auth_data) + cdh, mc.att_stmt["sig"])
            cdh = hashlib.sha256(b"new %d" % run).digest()
            a = ctap.get_assertion(RP_ID, cdh, allow_list=[
                {"type": "public-key", "id": new.credential_id}])
            assert len(a.signature) == FNDSA_SIG_SIZE[9]
            new.public_key.verify(bytes(a.auth_data) + cdh, a.signature)
            assert not r3_verifies(bytes(new.public_key[-1]), bytes(a.auth_data) + cdh,
                                   bytes(a.signature))
            dev.close()
            if run == 0:
                assert d.stop() == 0
                d.start(timeout=120)
    finally:
        assert d.stop() == 0
    if fido2_udp.TARGET == "daemon":
        # the first-layout record is kept as it was (not rewritten)
        recs = sorted(state.glob("cred-*.bin"))
        assert len(recs) == 2
        assert sum(r.read_bytes()[:8] == b"FAF2CRD1" for r in recs) == 1
        assert sum(r.read_bytes()[:8] == b"FAF2CRD2" for r in recs) == 1
