"""confluent-kafka's value shapes: ``KafkaError`` (librdkafka's codes and names, kafkawire's
errors mapped to them), ``KafkaException``, ``Message``, ``TopicPartition`` and librdkafka's
offset and timestamp constants. ``kafkawire.confluent`` gives them to programs written for
confluent-kafka; kafkawire's own Producer hands them to ``produce``'s delivery callbacks, which
is why they live here, below both."""

from __future__ import annotations

import builtins
from typing import Any

from kafkawire.protocol.error_codes import ERRORS, BrokerError

from .consumer.batches import DeserializationError
from .consumer.core import NoOffsetError
from .errors import (
    AuthenticationError,
    BrokerConnectionError,
    BufferFullError,
    ConfigError,
    DeliveryTimeoutError,
    RecordTooLargeError,
    RequestTimeoutError,
    TlsError,
    TransactionStateError,
)

TIMESTAMP_NOT_AVAILABLE = 0
TIMESTAMP_CREATE_TIME = 1
TIMESTAMP_LOG_APPEND_TIME = 2

OFFSET_BEGINNING = -2
OFFSET_END = -1
OFFSET_STORED = -1000
OFFSET_INVALID = -1001

# librdkafka's local (client-side) error codes, by its names
_LOCAL = {
    "_BAD_MSG": -199,
    "_BAD_COMPRESSION": -198,
    "_DESTROY": -197,
    "_FAIL": -196,
    "_TRANSPORT": -195,
    "_RESOLVE": -193,
    "_MSG_TIMED_OUT": -192,
    "_PARTITION_EOF": -191,
    "_UNKNOWN_PARTITION": -190,
    "_UNKNOWN_TOPIC": -188,
    "_ALL_BROKERS_DOWN": -187,
    "_INVALID_ARG": -186,
    "_TIMED_OUT": -185,
    "_QUEUE_FULL": -184,
    "_SSL": -181,
    "_STATE": -172,
    "_AUTHENTICATION": -169,
    "_NO_OFFSET": -168,
    "_KEY_DESERIALIZATION": -160,
    "_VALUE_DESERIALIZATION": -159,
    "_FATAL": -150,
    "_AUTO_OFFSET_RESET": -140,
    "_ASSIGNMENT_LOST": -142,
}
# broker codes where librdkafka's name is not Java's
_RDKAFKA_NAMES = {
    0: "NO_ERROR",
    2: "INVALID_MSG",
    3: "UNKNOWN_TOPIC_OR_PART",
    4: "INVALID_MSG_SIZE",
    6: "NOT_LEADER_FOR_PARTITION",
    10: "MSG_SIZE_TOO_LARGE",
    11: "STALE_CTRL_EPOCH",
    17: "TOPIC_EXCEPTION",
}
_NAMES = {
    **{info.code: info.name for info in ERRORS.values()},
    **_RDKAFKA_NAMES,
    **{code: name for name, code in _LOCAL.items()},
}
_RETRIABLE_LOCAL = {-195, -185, -187, -192}

# kafkawire's client errors as librdkafka's local codes (the first class that matches)
_CLIENT_CODES: list[tuple[type[BaseException], int]] = [
    (NoOffsetError, -140),
    (DeliveryTimeoutError, -192),
    (RequestTimeoutError, -185),
    (BrokerConnectionError, -195),
    (TlsError, -181),
    (AuthenticationError, -169),
    (RecordTooLargeError, 10),
    (BufferFullError, -184),
    (ConfigError, -186),
    (TransactionStateError, -172),
    (TypeError, -186),
    (ValueError, -186),
]


class KafkaError:
    """confluent-kafka's error value: ``code()`` (Kafka's code, or librdkafka's negative local
    one), ``name()``, ``str()``, ``retriable()``, ``fatal()``, ``txn_requires_abort()``; equal
    to its code. ``exception`` is kafkawire's error it stands for, when there is one."""

    def __init__(
        self,
        error: int,
        reason: str | None = None,
        fatal: bool = False,
        retriable: bool = False,
        txn_requires_abort: bool = False,
    ) -> None:
        self._code = int(error)
        self._reason = reason
        self._fatal = fatal
        self._retriable = retriable
        self._txn_requires_abort = txn_requires_abort
        self.exception: BaseException | None = None

    @classmethod
    def _of(cls, exc: BaseException) -> KafkaError:
        """The KafkaError for one of kafkawire's exceptions."""
        if isinstance(exc, KafkaException) and exc.args and isinstance(exc.args[0], KafkaError):
            return exc.args[0]
        if isinstance(exc, BrokerError):
            error = cls(exc.code, str(exc), retriable=exc.retriable)
        else:
            code = next((c for kind, c in _CLIENT_CODES if isinstance(exc, kind)), -196)
            if isinstance(exc, DeserializationError):
                code = -160 if str(exc).startswith("key_deserializer") else -159
            error = cls(code, str(exc) or type(exc).__name__, retriable=code in _RETRIABLE_LOCAL)
        error.exception = exc
        return error

    def code(self) -> int:
        return self._code

    def name(self) -> str:
        return _NAMES.get(self._code, f"ERR_{self._code}")

    def str(self) -> str:
        if self._reason:
            return self._reason
        info = ERRORS.get(self._code)
        return info.message if info is not None else self.name()

    def fatal(self) -> bool:
        return self._fatal

    def retriable(self) -> bool:
        return self._retriable

    def txn_requires_abort(self) -> bool:
        return self._txn_requires_abort

    def __eq__(self, other: object) -> bool:
        if isinstance(other, KafkaError):
            return self._code == other._code
        if isinstance(other, int):
            return self._code == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._code)

    def __repr__(self) -> builtins.str:
        return f'KafkaError{{code={self.name()},val={self._code},str="{self.str()}"}}'

    __str__ = __repr__


for _code, _name in _NAMES.items():
    setattr(KafkaError, _name, _code)
for _info in ERRORS.values():  # Java's names too, where librdkafka's differ
    setattr(KafkaError, _info.name, _info.code)


class KafkaException(Exception):
    """confluent-kafka's exception: ``args[0]`` is the KafkaError."""

    def __init__(self, error: KafkaError | int | str | None = None, *args: Any, **kwargs: Any):
        if isinstance(error, int):
            error = KafkaError(error, *args, **kwargs)
            args = ()
        super().__init__(error, *args)

    @classmethod
    def _of(cls, exc: BaseException) -> KafkaException:
        return cls(KafkaError._of(exc))


class Message:
    """confluent-kafka's Message: a consumed record, a delivery report, or an error event
    (``error()`` set)."""

    __slots__ = (
        "_delivery_count",
        "_error",
        "_headers",
        "_key",
        "_latency",
        "_leader_epoch",
        "_offset",
        "_partition",
        "_timestamp",
        "_topic",
        "_value",
    )

    def __init__(
        self,
        topic: str | None = None,
        partition: int | None = None,
        offset: int | None = None,
        key: Any = None,
        value: Any = None,
        headers: list[tuple[str, bytes | None]] | None = None,
        *,
        error: KafkaError | None = None,
        timestamp: int | None = None,
        timestamp_type: int = TIMESTAMP_CREATE_TIME,
        latency: float | None = None,
        leader_epoch: int | None = None,
        delivery_count: int | None = None,
    ) -> None:
        self._topic = topic
        self._delivery_count = delivery_count
        self._partition = partition
        self._offset = offset
        self._key = key
        self._value = value
        self._headers = headers
        self._error = error
        self._timestamp = (
            (TIMESTAMP_NOT_AVAILABLE, 0)
            if timestamp is None or timestamp < 0
            else (timestamp_type, timestamp)
        )
        self._latency = latency
        self._leader_epoch = leader_epoch

    def topic(self) -> str | None:
        return self._topic

    def partition(self) -> int | None:
        return self._partition

    def offset(self) -> int | None:
        return self._offset

    def key(self) -> Any:
        return self._key

    def value(self) -> Any:
        return self._value

    def headers(self) -> list[tuple[str, bytes | None]] | None:
        return self._headers

    def timestamp(self) -> tuple[int, int]:
        """(TIMESTAMP_CREATE_TIME or TIMESTAMP_LOG_APPEND_TIME, ms since the epoch), or
        (TIMESTAMP_NOT_AVAILABLE, 0)."""
        return self._timestamp

    def error(self) -> KafkaError | None:
        return self._error

    def latency(self) -> float | None:
        """Seconds from produce to the delivery report (None on a consumed message)."""
        return self._latency

    def leader_epoch(self) -> int | None:
        return self._leader_epoch

    def delivery_count(self) -> int | None:
        """A share group's delivery count (1 at the first delivery); None outside one."""
        return self._delivery_count

    def set_key(self, key: Any) -> None:
        self._key = key

    def set_value(self, value: Any) -> None:
        self._value = value

    def set_headers(self, headers: list[tuple[str, bytes | None]] | None) -> None:
        self._headers = headers

    def __len__(self) -> int:
        return 0 if self._value is None else len(self._value)

    def __repr__(self) -> str:
        if self._error is not None:
            return f"<Message error={self._error!r}>"
        return f"<Message {self._topic}-{self._partition}@{self._offset}>"


class TopicPartition:
    """confluent-kafka's TopicPartition: ``topic``, ``partition``, ``offset`` (OFFSET_INVALID:
    none), ``metadata``, ``leader_epoch``, ``error``. Equal by topic and partition."""

    __slots__ = ("error", "leader_epoch", "metadata", "offset", "partition", "topic")

    def __init__(
        self,
        topic: str,
        partition: int = -1,
        offset: int = OFFSET_INVALID,
        metadata: str | None = None,
        leader_epoch: int | None = None,
    ) -> None:
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.metadata = metadata
        self.leader_epoch = leader_epoch
        self.error: KafkaError | None = None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TopicPartition):
            return (self.topic, self.partition) == (other.topic, other.partition)
        return NotImplemented

    def __lt__(self, other: TopicPartition) -> bool:
        return (self.topic, self.partition) < (other.topic, other.partition)

    def __hash__(self) -> int:
        return hash((self.topic, self.partition))

    def __repr__(self) -> str:
        return (
            f"TopicPartition{{topic={self.topic},partition={self.partition},"
            f"offset={self.offset},leader_epoch={self.leader_epoch},error={self.error}}}"
        )
