"""The broker from Python: sync and asyncio submission, back-pressure
(BusyError), deadlines (DeadlineError), cancellation, metrics. Results are
checked with the single-call verify."""
import asyncio

import pytest

import falcon_accel as fa
from conftest import keypair


def test_sync_sign_and_verify():
    kp = keypair(9)
    with fa.Broker(threads=2) as b:
        msgs = [b"sync %d" % i for i in range(20)]
        sigs = b.sign([(kp.secret_key, m) for m in msgs], "padded")
        assert all(len(s) == 666 for s in sigs)
        assert all(fa.verify(kp.public_key, m, s) for m, s in zip(msgs, sigs))
        res = b.verify([(kp.public_key, m, s) for m, s in zip(msgs, sigs)]
                       + [(kp.public_key, b"other", sigs[0])])
        assert res == [True] * 20 + [False]
        # Booleans as verify_batch; codes separately; malformed raises.
        bad = [(kp.public_key, b"x", sigs[0][:-1]),
               (kp.public_key, msgs[1], sigs[1])]
        codes = b.verify_status(bad)
        assert codes[0] == fa.verify_status(*bad[0]) < 0 and codes[1] == 0
        with pytest.raises(fa.BatchError) as e:
            b.verify(bad)
        assert e.value.errors == codes
        job = b.submit_verify([(kp.public_key, msgs[0], sigs[0])])
        assert job.wait(10) and job.done() and job.status == 0
        assert job.latency_us >= 0 and job.item_statuses() == [0]
        with pytest.raises(fa.FalconError):
            job.signatures()
        m = b.metrics()
        assert m["jobs_completed"] == m["jobs_submitted"] == 5
        assert m["items_completed"] == 46 and m["threads"] == 2
        assert sum(m["batch_hist"]) == m["batches"] > 0
        assert m["backends"][0]["sign_items"] == 20


def test_asyncio_submission():
    kp = keypair(9)

    async def main(b):
        tasks = [b.sign_async([(kp.secret_key, b"a%d" % i)])
                 for i in range(40)]
        sigs = [s[0] for s in await asyncio.gather(*tasks)]
        ver = await b.verify_async(
            [(kp.public_key, b"a%d" % i, s) for i, s in enumerate(sigs)])
        bad = await b.verify_status_async([(kp.public_key, b"zz", sigs[0])])
        packed = fa.PackedItems.of(fa.OP_VERIFY,
                                   [(kp.public_key, b"a0", sigs[0])])
        again = await b.verify_async(packed)
        return sigs, ver + again, bad

    with fa.Broker(threads=2) as b:
        sigs, ver, bad = asyncio.run(main(b))
    assert ver == [True] * 41 and bad == [-4]
    assert all(fa.verify(kp.public_key, b"a%d" % i, s)
               for i, s in enumerate(sigs))


def test_full_queue_raises_busy():
    kp = keypair(9)
    with fa.Broker(threads=1, queue_capacity=4) as b:
        with pytest.raises(fa.FalconError) as e:
            b.submit_sign([(kp.secret_key, b"x")] * 5)   # never fits
        assert e.value.code == -5
        jobs, busy = [], None
        for _ in range(100):
            try:
                jobs.append(b.submit_sign([(kp.secret_key, b"x")] * 2))
            except fa.BusyError as err:
                busy = err
                break
        assert busy is not None and busy.code == -13
        assert b.metrics()["rejected_busy"] >= 1
        for j in jobs:
            assert j.wait(30) and j.status == 0
        # Room again once drained.
        b.sign([(kp.secret_key, b"y")])


def test_deadline_and_cancel():
    kp = keypair(10)
    with fa.Broker(threads=1) as b:
        backlog = [b.submit_sign([(kp.secret_key, b"q")] * 4)
                   for _ in range(10)]
        late = b.submit_sign([(kp.secret_key, b"late")], timeout=0.001)
        gone = b.submit_sign([(kp.secret_key, b"gone")] * 3)
        assert gone.cancel() and not gone.cancel()
        assert late.wait(30)
        assert late.status == -16 and late.item_statuses() == [-16]
        with pytest.raises(fa.DeadlineError):
            late.raise_for_status()
        assert gone.status == -15 and gone.signatures() == [None] * 3
        with pytest.raises(fa.CancelledError):
            gone.raise_for_status()
        for j in backlog:
            j.wait()
            assert j.status == 0
        m = b.metrics()
        assert m["items_expired"] == 1 and m["items_cancelled"] == 3


def test_async_deadline_and_task_cancellation():
    kp = keypair(10)

    async def main(b):
        backlog = [asyncio.ensure_future(
            b.sign_async([(kp.secret_key, b"q")] * 4)) for _ in range(6)]
        await asyncio.sleep(0)
        with pytest.raises(fa.DeadlineError):
            await b.sign_async([(kp.secret_key, b"late")], timeout=1e-6)
        t = asyncio.ensure_future(b.sign_async([(kp.secret_key, b"c")] * 2))
        await asyncio.sleep(0)
        t.cancel()
        with pytest.raises(asyncio.CancelledError):
            await t
        await asyncio.gather(*backlog)

    with fa.Broker(threads=1) as b:
        asyncio.run(main(b))
        assert b.metrics()["items_cancelled"] >= 1


def test_close_cancels_queued_jobs():
    kp = keypair(10)
    b = fa.Broker(threads=1)
    jobs = [b.submit_sign([(kp.secret_key, b"c")] * 4) for _ in range(8)]
    b.close()
    statuses = [j.status for j in jobs]
    assert all(s in (0, -15) for s in statuses) and -15 in statuses
    with pytest.raises(fa.FalconError):
        b.submit_sign([(kp.secret_key, b"c")])


def test_key_cache_preload():
    kp = keypair(9)
    with fa.Broker(threads=1) as b:
        b.preload_key(kp.secret_key)
        b.preload_key(kp.public_key, fa.OP_VERIFY)
        m = b.metrics()
        assert m["cache_entries"] == 2
        b.sign([(kp.secret_key, b"p")])
        assert b.metrics()["cache_hits"] >= 1
        assert b.forget_key(kp.secret_key) and not b.forget_key(kp.secret_key)
