"""Incremental fetch sessions (KIP-227), one per broker: after a full fetch that opens a
session, a fetch names only the partitions whose fetch position (or size limit) changed,
and those no longer wanted as forgotten; the broker answers only partitions with news.

Sans-IO: ``request`` says what the next Fetch carries, ``answered`` / ``failed`` move the
session on. A broker that gives no session id (Tansu 0.6, brokers before 1.1) keeps every
fetch full, and an answer saying the session is gone or out of step starts a new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from kafkawire.protocol.error_codes import ErrorCode

from ..types import TopicPartition

_FULL_NEW = 0  # session_epoch asking for a new session with a full fetch
_SESSION_LOST = {ErrorCode.FETCH_SESSION_ID_NOT_FOUND, ErrorCode.INVALID_FETCH_SESSION_EPOCH}
Wanted = Mapping[TopicPartition, tuple[int, int]]  # tp -> (fetch offset, partition max bytes)


class SessionRequest(NamedTuple):
    session_id: int
    epoch: int
    partitions: dict[TopicPartition, tuple[int, int]]  # what the Fetch names
    forgotten: list[TopicPartition]
    full: bool  # every wanted partition is named: one absent from the answer is missing


class FetchSession:
    def __init__(self) -> None:
        self.id = 0
        self.epoch = _FULL_NEW
        self._known: dict[TopicPartition, tuple[int, int]] = {}  # what the broker holds

    def request(self, wanted: Wanted) -> SessionRequest:
        wanted = dict(wanted)
        if self.id == 0:
            return SessionRequest(0, _FULL_NEW, wanted, [], True)
        changed = {tp: v for tp, v in wanted.items() if self._known.get(tp) != v}
        forgotten = sorted(tp for tp in self._known if tp not in wanted)
        return SessionRequest(self.id, self.epoch, changed, forgotten, False)

    def answered(self, sent: SessionRequest, wanted: Wanted, error_code: int, session_id: int):
        """The broker answered ``sent`` (built for ``wanted``)."""
        if error_code in _SESSION_LOST or (error_code and not sent.full):
            self.reset()
            return
        if sent.full:
            self.id = session_id
            self.epoch = 1
            self._known = dict(wanted) if session_id else {}
            return
        self.epoch = self.epoch + 1 if self.epoch < 0x7FFFFFFF else 1  # wraps past 0
        self._known = dict(wanted)

    def failed(self) -> None:
        """The fetch got no answer (lost connection, timeout): the broker's epoch is unknown."""
        self.reset()

    def reset(self) -> None:
        self.id = 0
        self.epoch = _FULL_NEW
        self._known = {}
