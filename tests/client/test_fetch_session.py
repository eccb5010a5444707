"""Fetch sessions (KIP-227) as the consumer keeps them: what each Fetch names, forgets and
which epoch it carries, through a broker's possible answers. No IO: the state machine alone
(the test broker, Tansu 0.6, opens no sessions, so the consumer tests run the full path)."""

from kafkawire.client.fetch_session import FetchSession
from kafkawire.client.types import TopicPartition
from kafkawire.protocol.error_codes import ErrorCode

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
