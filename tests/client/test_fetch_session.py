"""Fetch sessions (KIP-227) as the consumer keeps them: what each Fetch names, forgets and
which epoch it carries, through a broker's possible answers, as the state machine alone.

Neither test bed keeps sessions, so there is no end-to-end incremental fetch here: Tansu 0.6
opens none, and librdkafka's mock answers a Fetch with the session id it carried (0 asks for
a new one) and reads no epoch or forgotten partitions (rdkafka_mock_handlers.c). The last
test shows kafkawire reading from the mock with full fetches for that reason."""

import time
import uuid

from kafkawire.client import Client, TopicPartition
from kafkawire.client.consumer.fetch_session import FetchSession
from kafkawire.protocol.error_codes import ErrorCode
from tests.support.faces import make_consumer

A, B, C = (TopicPartition("t", p) for p in range(3))
LIMIT = 1 << 20


def test_a_session_opens_then_names_only_what_changed():
    s = FetchSession()
    wanted = {A: (0, LIMIT), B: (5, LIMIT)}
    first = s.request(wanted)
    assert (first.session_id, first.epoch, first.full) == (0, 0, True)
    assert first.partitions == wanted and first.forgotten == []
    s.answered(first, wanted, 0, session_id=77)
    # A got records (its offset moved), B did not
    wanted = {A: (40, LIMIT), B: (5, LIMIT)}
    second = s.request(wanted)
    assert (second.session_id, second.epoch, second.full) == (77, 1, False)
    assert second.partitions == {A: (40, LIMIT)} and second.forgotten == []
    s.answered(second, wanted, 0, session_id=77)
    # B is paused (no longer wanted), C is new, A unchanged
    wanted = {A: (40, LIMIT), C: (0, LIMIT)}
    third = s.request(wanted)
    assert third.epoch == 2 and third.partitions == {C: (0, LIMIT)} and third.forgotten == [B]
    s.answered(third, wanted, 0, session_id=77)
    assert s.request(wanted).partitions == {}  # nothing changed: an empty incremental fetch


def test_a_broker_without_sessions_gets_full_fetches():
    s = FetchSession()
    wanted = {A: (0, LIMIT)}
    for _ in range(3):
        request = s.request(wanted)
        assert request.full and request.session_id == 0 and request.partitions == wanted
        s.answered(request, wanted, 0, session_id=0)


def test_lost_sessions_and_lost_answers_start_again_in_full():
    for error in (ErrorCode.FETCH_SESSION_ID_NOT_FOUND, ErrorCode.INVALID_FETCH_SESSION_EPOCH):
        s = FetchSession()
        wanted = {A: (0, LIMIT), B: (0, LIMIT)}
        s.answered(s.request(wanted), wanted, 0, session_id=9)
        incremental = s.request(wanted)
        assert not incremental.full
        s.answered(incremental, wanted, error, session_id=0)
        again = s.request(wanted)
        assert again.full and again.session_id == 0 and again.partitions == wanted
    s = FetchSession()
    s.answered(s.request(wanted), wanted, 0, session_id=9)
    s.request(wanted)
    s.failed()  # no answer: the broker's epoch is unknown
    assert s.request(wanted).full


def test_the_epoch_wraps_to_one():
    s = FetchSession()
    wanted = {A: (0, LIMIT)}
    s.answered(s.request(wanted), wanted, 0, session_id=3)
    s.epoch = 0x7FFFFFFF
    s.answered(s.request(wanted), wanted, 0, session_id=3)
    assert s.request(wanted).epoch == 1


def test_the_mock_opens_no_session_so_every_fetch_is_full(mock_cluster, face, monkeypatch):
    topic = f"fs-{uuid.uuid4().hex[:8]}"
    mock_cluster.create_topic(topic, 3)
    tps = [TopicPartition(topic, p) for p in range(3)]
    with Client(mock_cluster.bootstrap, request_timeout=10) as client:
        for tp in tps:
            for start in range(0, 120, 20):  # the mock answers a fetch with one batch
                client.produce_columns(tp, [b"v%d" % i for i in range(start, start + 20)])
    answers = []  # (the fetch was full, the session id answered)
    answered = FetchSession.answered

    def record(self, sent, wanted, error_code, session_id):
        answers.append((sent.full, session_id))
        return answered(self, sent, wanted, error_code, session_id)

    monkeypatch.setattr(FetchSession, "answered", record)
    got = []
    with make_consumer(face, mock_cluster.bootstrap, config={"auto.offset.reset": "earliest"}) as c:
        c.assign(tps)
        end = time.monotonic() + 20
        while len(got) < 360 and time.monotonic() < end:
            got += c.poll(0.5)
    assert sorted((r.partition, r.offset) for r in got) == [
        (p, i) for p in range(3) for i in range(120)
    ]
    assert len(answers) >= 6 and set(answers) == {(True, 0)}  # a fetch a batch at least
