"""The transactional producer's state machine: the states a transaction goes through, the
partitions and offsets in the one under way, and the jobs the faces start to move it on
(``init_transactions``, ``begin_transaction``, ``send_offsets``, ``commit_transaction``,
``abort_transaction``). The coordinator's requests themselves are ``transactions.py``'s.

A producer without a transactional.id stays in ``NO_TRANSACTIONS``. A record may only be sent
in a transaction; the sender adds each partition to it (AddPartitionsToTxn) before its first
batch goes. When part of a transaction fails, it can only be aborted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafkawire.protocol.error_codes import BrokerError, ProducerFencedError

from ..errors import ClientError, TransactionStateError
from ..flow import Flow
from ..types import OffsetAndMetadata, TopicPartition
from ._accumulate import QUEUED
from .jobs import Drained
from .transactions import ConsumerGroupMetadata, GroupCoordinator, TransactionCoordinator

# transaction states
NO_TRANSACTIONS, UNINITIALIZED, READY, IN_TRANSACTION, COMMITTING, ABORTING, FATAL = range(7)


class TransactionState:
    """The transactions of ``producer`` (a ``ProducerCore``: its batches, producer identity and
    fatal error)."""

    def __init__(self, producer) -> None:
        self._producer = producer
        txn_id = producer.config.transactional_id
        self._state = NO_TRANSACTIONS if txn_id is None else UNINITIALIZED
        self._txn = None if txn_id is None else TransactionCoordinator(producer.core, txn_id)
        self.partitions: set[TopicPartition] = set()  # added to the transaction under way
        self.adding = False  # an AddPartitionsToTxn is under way
        self._offsets = False  # offsets were added to the transaction under way
        self.error: BaseException | None = None  # what failed of the transaction under way

    @property
    def state(self) -> int:
        return self._state

    @state.setter
    def state(self, state: int) -> None:
        self._state = state
        self._producer.update_fast()

    def _transactional(self) -> TransactionCoordinator:
        if self._txn is None:
            raise TransactionStateError("transactions need a transactional.id")
        if self._producer.fatal is not None:
            raise self._producer.fatal
        return self._txn

    def init_transactions(self) -> Flow[None]:
        p = self._producer
        coordinator = self._transactional()
        if self.state not in (UNINITIALIZED, READY):
            raise TransactionStateError("init_transactions: a transaction is under way")
        ident = yield from coordinator.init_producer_id(p.config.transaction_timeout_ms)
        p.set_identity(ident)
        self.state = READY

    def begin_transaction(self) -> None:
        self._transactional()
        if self.state == UNINITIALIZED:
            raise TransactionStateError("begin_transaction: call init_transactions first")
        if self.state != READY:
            raise TransactionStateError("begin_transaction: a transaction is under way already")
        self.state = IN_TRANSACTION
        self.partitions = set()
        self._offsets = False
        self.error = None

    def add_partitions(self, tps: list[TopicPartition]) -> None:
        """A job: add ``tps`` to the transaction (their batches go once it is done)."""
        p = self._producer
        self.adding = True

        def done(_, error):
            self.adding = False
            if error is None:
                self.partitions.update(tps)
                return
            if isinstance(error, ProducerFencedError):
                p.fail_all(error)
                return
            retriable = isinstance(error, (ClientError, BrokerError)) and getattr(
                error, "retriable", isinstance(error, ClientError)
            )
            if not retriable:  # the records of these partitions cannot be in the transaction
                for tp in tps:
                    for b in list(p.queues[tp].batches):
                        p.finish(b, error=error)

        flow = self._txn.add_partitions(p.identity, tps)
        p.start_job(flow, done)

    def send_offsets(
        self,
        offsets: Mapping[TopicPartition, Any],
        group: ConsumerGroupMetadata,
    ) -> Flow[None]:
        p = self._producer
        coordinator = self._transactional()
        if self.state != IN_TRANSACTION:
            raise TransactionStateError(not_in_transaction(self.state))
        chosen = {
            TopicPartition(*tp): o if isinstance(o, OffsetAndMetadata) else OffsetAndMetadata(o)
            for tp, o in offsets.items()
        }
        if isinstance(group, str):
            group = ConsumerGroupMetadata(group)
        try:
            yield from coordinator.add_offsets(p.identity, group.group_id)
            self._offsets = True
            yield from GroupCoordinator(p.core, group.group_id).txn_offset_commit(
                coordinator.key, p.identity, group, chosen
            )
        except ProducerFencedError as exc:
            p.fail_all(exc)
            raise
        except Exception as exc:
            self.error = self.error or exc
            raise

    def commit_transaction(self) -> Flow[None]:
        p = self._producer
        coordinator = self._transactional()
        if self.state != IN_TRANSACTION:
            raise TransactionStateError(not_in_transaction(self.state))
        if self.error is not None:
            raise TransactionStateError(
                f"commit_transaction: part of the transaction failed ({self.error}); "
                "abort_transaction, then try again"
            )
        self.state = COMMITTING
        p.flushing += 1
        try:
            yield Drained()
        finally:
            p.flushing -= 1
        if p.fatal is not None:
            raise p.fatal
        if self.error is not None:
            self.state = IN_TRANSACTION
            raise TransactionStateError(
                f"commit_transaction: part of the transaction failed ({self.error}); "
                "abort_transaction, then try again"
            )
        try:
            if self.partitions or self._offsets:
                yield from coordinator.end(p.identity, True)
        except ProducerFencedError as exc:
            p.fail_all(exc)
            raise
        except Exception:
            self.state = IN_TRANSACTION  # the commit may be tried again, or aborted
            raise
        self.state = READY

    def abort_transaction(self) -> Flow[None]:
        p = self._producer
        coordinator = self._transactional()
        if self.state not in (IN_TRANSACTION, ABORTING):
            raise TransactionStateError(not_in_transaction(self.state))
        self.state = ABORTING
        aborted = TransactionStateError("the transaction was aborted before these records went")
        for q in p.queues.values():  # what is not in flight is dropped
            for b in [b for b in q.batches if b.state == QUEUED]:
                p.finish(b, error=aborted)
        p.held.fail(aborted)
        p.flushing += 1
        try:
            yield Drained()
        finally:
            p.flushing -= 1
        if p.fatal is not None:
            raise p.fatal
        try:
            if self.partitions or self._offsets:
                yield from coordinator.end(p.identity, False)
            if p.reset_identity:  # a batch failed after it was sent: a new epoch
                ident = yield from coordinator.init_producer_id(
                    p.config.transaction_timeout_ms, p.identity
                )
                p.set_identity(ident)
        except ProducerFencedError as exc:
            p.fail_all(exc)
            raise
        self.state = READY


def not_in_transaction(state: int) -> str:
    """Why a record cannot be sent, or offsets added, in ``state``."""
    if state == UNINITIALIZED:
        return "call init_transactions, then begin_transaction, before sending"
    if state == READY:
        return "no transaction: call begin_transaction first"
    if state in (COMMITTING, ABORTING):
        return "the transaction is ending: wait for commit/abort to return"
    if state == FATAL:
        return "the producer was fenced: close it"
    return "no transaction under way"
