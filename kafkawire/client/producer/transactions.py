"""The transaction coordinator's requests, as flows: InitProducerId, AddPartitionsToTxn,
AddOffsetsToTxn, TxnOffsetCommit (to the group's coordinator) and EndTxn.

Each finds its coordinator, retries what Kafka says is retriable (the coordinator loading or
moving, a transaction still ending), and turns fencing into ``ProducerFencedError``: another
producer with the same transactional.id has started, and this one must stop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import (
    BrokerError,
    ErrorCode,
    ProducerFencedError,
    raise_for_code,
)

from ..core import ClientCore
from ..flow import Flow
from ..groups.coordinator import GROUP, TRANSACTION, find_coordinator
from ..types import OffsetAndMetadata, TopicPartition

_FENCED = (ErrorCode.INVALID_PRODUCER_EPOCH, ErrorCode.PRODUCER_FENCED)
_MOVED = (ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE)
# AddPartitionsToTxn 4+ is the brokers' batched form; EndTxn 5 bumps the epoch every
# transaction (KIP-890 part 2, not stable): clients send the versions below
_ADD_PARTITIONS_NEWEST = 3
_END_TXN_NEWEST = 4


class ConsumerGroupMetadata(NamedTuple):
    """What a transaction needs of the consumer whose offsets it commits
    (``Consumer.group_metadata()``): a fenced member's offsets are refused."""

    group_id: str
    generation_id: int = -1
    member_id: str = ""
    group_instance_id: str | None = None


class ProducerIdentity(NamedTuple):
    producer_id: int
    epoch: int


def fenced(what: str, transactional_id: str | None) -> ProducerFencedError:
    return ProducerFencedError(
        f"{what}: this producer was fenced: another producer started with transactional.id "
        f"{transactional_id!r} (or the transaction timed out); close it"
    )


def check(code: int, what: str, transactional_id: str | None) -> None:
    if code in _FENCED:
        raise fenced(what, transactional_id)
    raise_for_code(code, what)


class _Coordinator:
    """A coordinator's node id, found once and found again when it moves."""

    def __init__(self, core: ClientCore, key: str, key_type: int) -> None:
        self.core, self.key, self.key_type = core, key, key_type
        self.node: int | None = None

    def call(self, request, what: str, answer: Callable, newest: int | None = None) -> Flow:
        """``request`` to the coordinator, retried; ``answer(response)`` checks it."""

        def attempt():
            if self.node is None:
                self.node = yield from find_coordinator(self.core, self.key, self.key_type)
            response = yield self.core.call(self.node, request, newest=newest)
            try:
                return answer(response)
            except BrokerError as exc:
                if exc.code in _MOVED:
                    self.node = None
                raise

        return self.core.retrying(attempt, what)


class TransactionCoordinator(_Coordinator):
    def __init__(self, core: ClientCore, transactional_id: str) -> None:
        super().__init__(core, transactional_id, TRANSACTION)

    def init_producer_id(
        self, timeout_ms: int, current: ProducerIdentity | None = None
    ) -> Flow[ProducerIdentity]:
        """A producer id and a new epoch for the transactional id: the broker aborts what the
        previous instance left open and fences it."""
        request = m.InitProducerIdRequest(
            transactional_id=self.key,
            transaction_timeout_ms=timeout_ms,
            producer_id=-1 if current is None else current.producer_id,
            producer_epoch=-1 if current is None else current.epoch,
        )

        def answer(r):
            check(r.error_code, "InitProducerId", self.key)
            return ProducerIdentity(r.producer_id, r.producer_epoch)

        return self.call(request, "InitProducerId", answer)

    def add_partitions(self, ident: ProducerIdentity, tps: list[TopicPartition]) -> Flow[None]:
        topics: dict[str, list[int]] = {}
        for tp in tps:
            topics.setdefault(tp.topic, []).append(tp.partition)
        request = m.AddPartitionsToTxnRequest(
            v3_and_below_transactional_id=self.key,
            v3_and_below_producer_id=ident.producer_id,
            v3_and_below_producer_epoch=ident.epoch,
            v3_and_below_topics=[
                m.AddPartitionsToTxnRequest.AddPartitionsToTxnTopic(name=t, partitions=ps)
                for t, ps in topics.items()
            ],
        )

        def answer(r):
            check(r.error_code, "AddPartitionsToTxn", self.key)
            failed = {}
            for t in r.results_by_topic_v3_and_below:
                for p in t.results_by_partition:
                    if p.partition_error_code:
                        failed[f"{t.name}-{p.partition_index}"] = p.partition_error_code
            # OPERATION_NOT_ATTEMPTED marks the partitions held back by another's error
            real = {k: c for k, c in failed.items() if c != ErrorCode.OPERATION_NOT_ATTEMPTED}
            for name, code in (real or failed).items():
                check(code, f"AddPartitionsToTxn {name}", self.key)

        return self.call(request, "AddPartitionsToTxn", answer, _ADD_PARTITIONS_NEWEST)

    def add_offsets(self, ident: ProducerIdentity, group_id: str) -> Flow[None]:
        request = m.AddOffsetsToTxnRequest(
            transactional_id=self.key,
            producer_id=ident.producer_id,
            producer_epoch=ident.epoch,
            group_id=group_id,
        )
        return self.call(
            request, "AddOffsetsToTxn", lambda r: check(r.error_code, "AddOffsetsToTxn", self.key)
        )

    def end(self, ident: ProducerIdentity, commit: bool) -> Flow[None]:
        request = m.EndTxnRequest(
            transactional_id=self.key,
            producer_id=ident.producer_id,
            producer_epoch=ident.epoch,
            committed=commit,
        )
        return self.call(
            request, "EndTxn", lambda r: check(r.error_code, "EndTxn", self.key), _END_TXN_NEWEST
        )


class GroupCoordinator(_Coordinator):
    def __init__(self, core: ClientCore, group_id: str) -> None:
        super().__init__(core, group_id, GROUP)

    def txn_offset_commit(
        self,
        transactional_id: str,
        ident: ProducerIdentity,
        group: ConsumerGroupMetadata,
        offsets: Mapping[TopicPartition, OffsetAndMetadata],
    ) -> Flow[None]:
        topics: dict[str, list] = {}
        for tp, o in offsets.items():
            topics.setdefault(tp.topic, []).append(
                m.TxnOffsetCommitRequest.TxnOffsetCommitRequestPartition(
                    partition_index=tp.partition,
                    committed_offset=o.offset,
                    committed_leader_epoch=-1 if o.leader_epoch is None else o.leader_epoch,
                    committed_metadata=o.metadata,
                )
            )
        request = m.TxnOffsetCommitRequest(
            transactional_id=transactional_id,
            group_id=group.group_id,
            producer_id=ident.producer_id,
            producer_epoch=ident.epoch,
            generation_id=group.generation_id,
            member_id=group.member_id,
            group_instance_id=group.group_instance_id,
            topics=[
                m.TxnOffsetCommitRequest.TxnOffsetCommitRequestTopic(name=t, partitions=ps)
                for t, ps in topics.items()
            ],
        )

        def answer(r):
            for t in r.topics:
                for p in t.partitions:
                    what = f"TxnOffsetCommit {t.name}-{p.partition_index}"
                    check(p.error_code, what, transactional_id)

        return self.call(request, "TxnOffsetCommit", answer)
