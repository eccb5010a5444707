"""Flows without a network: a driver of our own answers the effects, so what is checked is
the rules, not a machine's timing: flow.within (calls cut to the time left, the error's
contents), flow.Continued (a flow continued across slices with its calls kept in flight),
retries that do not multiply, and what a pattern subscription matches."""

from __future__ import annotations

import pytest

from kafkawire.client.errors import BrokerConnectionError, RequestTimeoutError
from kafkawire.client.flow import Call, Continued, Sleep, Start, Wait, retrying, within


def answer_all(flow, outcome_of):
    """Drive ``flow`` to its end, answering each Call with ``outcome_of(call)`` (an exception
    is thrown in); the effects it yielded and its result."""
    seen = []
    try:
        effect = next(flow)
        while True:
            seen.append(effect)
            if isinstance(effect, Call):
                outcome = outcome_of(effect)
                effect = (
                    flow.throw(outcome) if isinstance(outcome, Exception) else flow.send(outcome)
                )
            else:
                effect = flow.send(None)
    except StopIteration as stop:
        return seen, stop.value


def two_calls():
    first = yield Call(1, "first", timeout=30.0)
    second = yield Call(2, "second", timeout=30.0)
    return first + second


def test_within_cuts_every_call_to_the_time_left():
    seen, result = answer_all(within(two_calls(), 5.0, "both"), lambda call: call.request)
    assert result == "firstsecond"
    assert all(isinstance(e, Call) and e.timeout <= 5.0 for e in seen)


def test_within_without_seconds_changes_nothing():
    seen, _ = answer_all(within(two_calls(), None, "both"), lambda call: call.request)
    assert [e.timeout for e in seen] == [30.0, 30.0]


class Clock:
    """time.monotonic for flow.py: each refused call takes a second."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_within_gives_up_with_the_failures_it_saw(monkeypatch):
    import kafkawire.client.flow as flow_module

    clock = Clock()
    monkeypatch.setattr(flow_module.time, "monotonic", clock.monotonic)

    def refused(call):
        clock.now += 1.0
        return BrokerConnectionError(f"cannot connect to broker {call.node}")

    attempts = retrying(lambda: two_calls(), "Metadata", retries=1000, backoff=0.0, backoff_max=0.0)
    with pytest.raises(RequestTimeoutError) as caught:
        answer_all(within(attempts, 2.5, "metadata"), refused)
    assert str(caught.value) == (
        "metadata: not done in 2.5 s (gave up after 3.00 s; 3 requests failed, the last: "
        "cannot connect to broker 1)"
    )


def test_exhausted_retries_are_not_retried_again():
    def refused(call):
        return BrokerConnectionError("cannot connect to x:1")

    inner = lambda: retrying(two_calls, "Inner", retries=2, backoff=0.0, backoff_max=0.0)  # noqa: E731
    outer = retrying(inner, "Outer", retries=5, backoff=0.0, backoff_max=0.0)
    calls = []
    with pytest.raises(BrokerConnectionError) as caught:
        answer_all(outer, lambda call: calls.append(call) or refused(call))
    assert len(calls) == 3  # the inner flow's three attempts, not 3 x 6
    assert str(caught.value).count("attempts") == 1


class Driver:
    """Answers Start with tickets and Wait with the outcomes the test releases."""

    def __init__(self) -> None:
        self.started: list = []
        self.outcomes: dict = {}

    def run(self, flow):
        try:
            effect = next(flow)
            while True:
                if isinstance(effect, Start):
                    self.started.append(effect.call)
                    effect = flow.send(len(self.started) - 1)
                elif isinstance(effect, Wait):
                    done = {t: self.outcomes.pop(t) for t in effect.tickets if t in self.outcomes}
                    effect = flow.send(done)
                elif isinstance(effect, Sleep):
                    effect = flow.send(None)
                else:
                    raise AssertionError(f"unexpected {effect!r}")
        except StopIteration as stop:
            return stop.value


def test_continued_keeps_its_call_in_flight_across_slices():
    continued = Continued(two_calls(), "join", None)
    driver = Driver()
    assert driver.run(continued.advance(0.0)) is False  # the first call went out, unanswered
    assert [c.request for c in driver.started] == ["first"]
    assert driver.run(continued.advance(0.0)) is False  # not sent again
    assert len(driver.started) == 1
    driver.outcomes[0] = "a"
    assert driver.run(continued.advance(0.0)) is False  # on to the second call
    assert [c.request for c in driver.started] == ["first", "second"]
    driver.outcomes[1] = "b"
    assert driver.run(continued.advance(0.0)) is True
    assert continued.finished and continued.result == "ab"


def test_continued_raises_the_flows_error_and_is_finished():
    continued = Continued(two_calls(), "join", None)
    driver = Driver()
    driver.run(continued.advance(0.0))
    driver.outcomes[0] = BrokerConnectionError("lost")
    with pytest.raises(BrokerConnectionError, match="lost"):
        driver.run(continued.advance(0.0))
    assert continued.finished


@pytest.mark.parametrize("exclude", [True, False])
def test_a_pattern_matches_internal_topics_only_when_asked(exclude):
    """exclude.internal.topics (true by default): a pattern subscription leaves out the
    topics the cluster marks internal (__consumer_offsets)."""
    import re

    from kafkawire import messages as m
    from kafkawire.client.config.client import client_config
    from kafkawire.client.consumer.config import consumer_config
    from kafkawire.client.consumer.core import ConsumerCore
    from kafkawire.client.core import ClientCore

    client, config = consumer_config(
        "127.0.0.1:1", {"group.id": "g", "exclude.internal.topics": exclude}
    )
    consumer = ConsumerCore(ClientCore(client), config)
    consumer.subscribe(re.compile("_.*"), {})
    topic = m.MetadataResponse.MetadataResponseTopic
    answer = m.MetadataResponse(
        brokers=[m.MetadataResponse.MetadataResponseBroker(node_id=1, host="h", port=1)],
        topics=[
            topic(name="__consumer_offsets", is_internal=True),
            topic(name="_orders", is_internal=False),
        ],
    )
    answer_all(consumer._match_pattern(), lambda call: answer)
    assert consumer.topics == (["_orders"] if exclude else ["__consumer_offsets", "_orders"])
    assert client_config("127.0.0.1:1").allow_auto_create_topics is False


def test_a_fetch_of_caught_up_partitions_waits_while_other_buffers_are_full():
    """A fetch holding only partitions fetched up to their end would wait at the broker
    (fetch.wait.max.ms) and hold back that broker's next fetch: it is not sent while another
    partition is left out because its buffer is full (2 answers), and it is once that
    partition has room again, or is paused."""
    import uuid

    from kafkawire import messages as m
    from kafkawire.client.consumer.config import consumer_config
    from kafkawire.client.consumer.pipeline import FetchPipeline, _Fetched, _Partition
    from kafkawire.client.core import ClientCore
    from kafkawire.client.types import TopicPartition

    client, config = consumer_config("127.0.0.1:1", {})
    core = ClientCore(client)
    pipeline = FetchPipeline(core, config)
    full, ended = TopicPartition("t", 0), TopicPartition("t", 1)
    parts = {full: _Partition(position=0, fetch_offset=500), ended: _Partition(position=7)}
    parts[full].buffered.extend([_Fetched(None, 250), _Fetched(None, 500)])
    parts[ended].fetch_offset = parts[ended].high = 7  # nothing more at the broker now
    topic = m.MetadataResponse.MetadataResponseTopic
    leader = m.MetadataResponse.MetadataResponsePartition
    answer = m.MetadataResponse(
        brokers=[m.MetadataResponse.MetadataResponseBroker(node_id=1, host="h", port=1)],
        topics=[
            topic(
                name="t",
                topic_id=uuid.uuid4(),
                partitions=[leader(partition_index=p, leader_id=1) for p in (0, 1)],
            )
        ],
    )

    def fetched(parts):
        seen, _ = answer_all(pipeline.send(parts), lambda call: answer)
        starts = [e for e in seen if isinstance(e, Start)]
        return [sorted(pipeline.in_flight.popitem()[1].sent) for _ in starts]

    assert fetched(parts) == []  # only the caught-up partition, the other one full
    parts[full].buffered.popleft()
    assert fetched(parts) == [[full, ended]]  # room again: both, answered at once
    for tp in parts:
        parts[tp].in_flight = False
    parts[full].buffered.append(_Fetched(None, 750))
    parts[full].paused = True
    assert fetched(parts) == [[ended]]  # a paused partition holds nothing back
