"""A small synchronous Kafka client over kafkawire's sans-IO codec.

It does what tools, tests and the Spark data sources need: bootstrap, ApiVersions negotiation,
Metadata, ListOffsets, Fetch straight into ``RecordView`` / Arrow, Produce (plain or
idempotent) and topic administration. One blocking connection per broker, reused; every call
has a timeout; retriable broker errors and lost connections are retried with backoff after a
metadata refresh. Consumer groups and transactions are out of scope: use a full client.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from kafkawire import __version__
from kafkawire._builder import key_partitions, murmur2
from kafkawire.errors import CorruptError, KafkawireError
from kafkawire.protocol import messages as m
from kafkawire.protocol._codec import decode_response, encode_request
from kafkawire.protocol._generated_messages import ApiKey
from kafkawire.protocol.error_codes import (
    ERRORS,
    BrokerError,
    ErrorCode,
    OffsetOutOfRangeError,
    UnknownTopicOrPartitionError,
    raise_for_code,
)
from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE
from kafkawire.protocol.versions import (
    choose_version,
    decode_api_versions_response,
    negotiate,
    retry_version,
)
from kafkawire.records import RecordView, build_batches, decode_records

__all__ = [
    "EARLIEST",
    "LATEST",
    "READ_COMMITTED",
    "READ_UNCOMMITTED",
    "BrokerConnectionError",
    "Client",
    "ClientError",
    "ClusterMetadata",
    "FetchedPartition",
    "IdempotentProducer",
    "OffsetAndTimestamp",
    "PartitionInfo",
    "ProduceResult",
    "RecordChunk",
    "RequestTimeoutError",
    "TopicInfo",
    "TopicPartition",
    "default_partition",
    "key_partitions",
    "murmur2",
]

EARLIEST = -2
LATEST = -1
READ_UNCOMMITTED = 0
READ_COMMITTED = 1

_SIZE = struct.Struct(">i")
_NO_TOPIC_ID = uuid.UUID(int=0)
# The oldest version of each API this client can use: record batches (magic 2) need Produce 3
# and Fetch 4; ListOffsets 1 answers one offset per partition.
_OLDEST = {
    ApiKey.PRODUCE: 3,
    ApiKey.FETCH: 4,
    ApiKey.LIST_OFFSETS: 1,
    ApiKey.METADATA: 1,
    ApiKey.CREATE_TOPICS: 0,
    ApiKey.DELETE_TOPICS: 0,
    ApiKey.INIT_PRODUCER_ID: 0,
}


class ClientError(KafkawireError):
    """The client could not complete a call."""


class BrokerConnectionError(ClientError):
    """A broker could not be reached, or the connection broke during a call."""


class RequestTimeoutError(ClientError):
    """A broker did not answer within the timeout."""


class _MissingPartitions(BrokerError):
    """A fetch answer left out partitions it was asked for: ask again."""

    retriable = True


class TopicPartition(NamedTuple):
    topic: str
    partition: int


class PartitionInfo(NamedTuple):
    partition: int
    leader: int
    leader_epoch: int
    replicas: list[int]
    isr: list[int]
    error_code: int


class TopicInfo(NamedTuple):
    name: str
    topic_id: uuid.UUID
    partitions: dict[int, PartitionInfo]
    error_code: int
    is_internal: bool


@dataclass
class ClusterMetadata:
    brokers: dict[int, tuple[str, int]]
    topics: dict[str, TopicInfo]
    controller_id: int
    cluster_id: str | None


class OffsetAndTimestamp(NamedTuple):
    offset: int
    timestamp: int


class ProduceResult(NamedTuple):
    base_offset: int  # of the first batch sent (-1 with acks=0)
    log_append_time: int  # -1 unless the topic uses LogAppendTime
    log_start_offset: int


@dataclass
class FetchedPartition:
    """One partition of a Fetch response: the raw record batches and the partition's state."""

    tp: TopicPartition
    records: memoryview
    error_code: int
    high_watermark: int
    last_stable_offset: int
    log_start_offset: int
    aborted_transactions: list[tuple[int, int]] | None

    def raise_for_error(self) -> None:
        raise_for_code(self.error_code, f"{self.tp.topic}-{self.tp.partition}")


@dataclass
class RecordChunk:
    """Rows ``start:stop`` of a RecordView: the records of one fetch inside the asked range."""

    tp: TopicPartition
    view: RecordView
    start: int
    stop: int
    next_offset: int  # where the next chunk of the partition begins

    def __len__(self) -> int:
        return self.stop - self.start

    @property
    def offsets(self) -> np.ndarray:
        return self.view.offsets[self.start : self.stop]

    @property
    def timestamps(self) -> np.ndarray:
        return self.view.timestamps[self.start : self.stop]

    def to_arrow(self, *, binary: str = "plain"):
        """A pyarrow Table of the chunk's rows (key, value, offset, timestamp, timestampType,
        headers); see RecordView.to_arrow for ``binary``."""
        table = self.view.to_arrow(binary=binary)
        if self.start == 0 and self.stop == len(self.view):
            return table
        return table.slice(self.start, self.stop - self.start)


def default_partition(key: bytes, num_partitions: int) -> int:
    """The partition Java's producer picks for a keyed record."""
    return (murmur2(key) & 0x7FFFFFFF) % num_partitions


def _parse_servers(servers: str | Sequence[str]) -> list[tuple[str, int]]:
    if isinstance(servers, str):
        servers = [s for s in servers.split(",") if s.strip()]
    parsed = []
    for server in servers:
        host, sep, port = server.strip().rpartition(":")
        if not sep or not port.isdigit():
            raise ValueError(f"bootstrap server {server!r} is not host:port")
        parsed.append((host.strip("[]"), int(port)))
    if not parsed:
        raise ValueError("no bootstrap servers given")
    return parsed


class _Connection:
    """One blocking socket to one broker, with the API versions negotiated on it."""

    def __init__(self, host: str, port: int, client: Client) -> None:
        self.address = f"{host}:{port}"
        self._client = client
        self._correlation_id = 0
        self._unanswered: set[int] = set()  # acks=0 produces
        try:
            self._sock = socket.create_connection((host, port), timeout=client.connect_timeout)
        except OSError as exc:
            raise BrokerConnectionError(f"cannot connect to {self.address}: {exc}") from None
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            self.versions = self._handshake()
        except BaseException:
            self.close()
            raise

    def _handshake(self) -> dict[int, int]:
        version = m.ApiVersionsRequest.valid_versions.stop - 1
        for _ in range(2):  # once more after a downgrade answer
            request = m.ApiVersionsRequest(
                client_software_name="kafkawire", client_software_version=__version__
            )
            frame = self._roundtrip(request, version, self._client.request_timeout)
            _, response, got = decode_api_versions_response(frame, version)
            if got == version:
                raise_for_code(response.error_code, f"ApiVersions from {self.address}")
                return negotiate(response)
            version = retry_version(response)
        raise BrokerConnectionError(f"{self.address} refused every ApiVersions version")

    def _next_id(self) -> int:
        self._correlation_id = (self._correlation_id + 1) & 0x7FFFFFFF
        return self._correlation_id

    def _roundtrip(self, request, version: int, timeout: float) -> bytes | None:
        correlation_id = self._next_id()
        frame = encode_request(
            request,
            version=version,
            correlation_id=correlation_id,
            client_id=self._client.client_id,
            drop_unsupported=True,
        )
        deadline = time.monotonic() + timeout
        self._send(frame, deadline)
        if isinstance(request, m.ProduceRequest) and request.acks == 0:
            self._unanswered.add(correlation_id)
            return None  # the broker sends nothing back
        while True:
            response = self._receive(deadline)
            (got,) = _SIZE.unpack_from(response, 0)
            # some brokers (Tansu 0.x) do answer acks=0 produces: skip those answers
            if got not in self._unanswered:
                break
            self._unanswered.discard(got)
        if self._unanswered:  # answers come in order: older acks=0 ids will get none
            self._unanswered = {i for i in self._unanswered if i > got}
        if got != correlation_id:
            self.close()
            raise CorruptError(
                f"{self.address} answered correlation id {got}, expected {correlation_id}",
                offset=0,
                field="ResponseHeader.correlation_id",
            )
        return response

    def request(self, request, *, newest: int | None = None, timeout: float | None = None):
        """Send ``request`` at the negotiated version; its decoded response (None for a
        Produce with acks=0)."""
        api_key = request.api_key
        version = choose_version(
            self.versions, api_key, oldest=_OLDEST.get(api_key, 0), newest=newest
        )
        timeout = self._client.request_timeout if timeout is None else timeout
        frame = self._roundtrip(request, version, timeout)
        if frame is None:
            return None
        return decode_response(frame, api_key=api_key, api_version=version)[1]

    def _send(self, data: bytes, deadline: float) -> None:
        try:
            self._sock.settimeout(max(deadline - time.monotonic(), 0.001))
            self._sock.sendall(data)
        except TimeoutError:
            self.close()
            raise RequestTimeoutError(f"sending to {self.address} timed out") from None
        except OSError as exc:
            self.close()
            raise BrokerConnectionError(f"sending to {self.address} failed: {exc}") from None

    def _receive_exactly(self, n: int, deadline: float) -> bytearray:
        buf = bytearray(n)
        view = memoryview(buf)
        got = 0
        try:
            while got < n:
                self._sock.settimeout(max(deadline - time.monotonic(), 0.001))
                count = self._sock.recv_into(view[got:], n - got)
                if count == 0:
                    raise BrokerConnectionError(
                        f"{self.address} closed the connection "
                        f"({got} of {n} bytes of a frame received)"
                    )
                got += count
        except TimeoutError:
            self.close()
            raise RequestTimeoutError(f"no answer from {self.address} in time") from None
        except BrokerConnectionError:
            self.close()
            raise
        except OSError as exc:
            self.close()
            raise BrokerConnectionError(f"receiving from {self.address} failed: {exc}") from None
        return buf

    def _receive(self, deadline: float) -> bytes:
        (size,) = _SIZE.unpack(self._receive_exactly(4, deadline))
        if size < 4 or size > self._client.max_frame_size:
            self.close()
            raise CorruptError(
                f"{self.address} sent a frame size of {size} (limit {self._client.max_frame_size})",
                offset=0,
                field="frame size",
            )
        # bytes: the records of a fetch are viewed in place and must not change afterwards
        return bytes(self._receive_exactly(size, deadline))

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.close()
        self.closed = True

    closed = False


class Client:
    """A synchronous client for one Kafka cluster.

    :param bootstrap_servers: "host:port,host:port" or a list of "host:port".
    :param request_timeout: seconds to wait for each answer (a fetch adds its max wait).
    :param retries: attempts after a retriable error or a lost connection, each after a
        metadata refresh and ``retry_backoff`` seconds (doubling).
    """

    def __init__(
        self,
        bootstrap_servers: str | Sequence[str],
        *,
        client_id: str = "kafkawire",
        request_timeout: float = 30.0,
        connect_timeout: float = 10.0,
        retries: int = 5,
        retry_backoff: float = 0.1,
        max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
    ) -> None:
        self.bootstrap_servers = _parse_servers(bootstrap_servers)
        self.client_id = client_id
        self.request_timeout = request_timeout
        self.connect_timeout = connect_timeout
        self.retries = retries
        self.retry_backoff = retry_backoff
        self.max_frame_size = max_frame_size
        self._connections: dict[int | tuple[str, int], _Connection] = {}
        self._brokers: dict[int, tuple[str, int]] = {}
        self._cluster: ClusterMetadata | None = None

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        for conn in self._connections.values():
            conn.close()
        self._connections.clear()

    # ---- connections -------------------------------------------------------------------

    def _connect(self, key: int | tuple[str, int], host: str, port: int) -> _Connection:
        conn = self._connections.get(key)
        if conn is None or conn.closed:
            conn = self._connections[key] = _Connection(host, port, self)
        return conn

    def _any_connection(self) -> _Connection:
        """A connection to some broker: an open one, a known broker, or a bootstrap server."""
        for conn in self._connections.values():
            if not conn.closed:
                return conn
        errors = []
        candidates = [(node, addr) for node, addr in self._brokers.items()]
        candidates += [(addr, addr) for addr in self.bootstrap_servers]
        for key, (host, port) in candidates:
            try:
                return self._connect(key, host, port)
            except BrokerConnectionError as exc:
                errors.append(str(exc))
        raise BrokerConnectionError("no broker reachable: " + "; ".join(errors))

    def _node(self, node_id: int) -> _Connection:
        if node_id not in self._brokers:
            self.metadata()
        if node_id not in self._brokers:
            raise BrokerConnectionError(f"broker {node_id} is not in the cluster metadata")
        host, port = self._brokers[node_id]
        return self._connect(node_id, host, port)

    def _with_retries(self, call, what: str):
        """Run ``call()``; after a lost connection or a retriable broker error refresh the
        metadata, back off and try again, up to ``retries`` times."""
        backoff = self.retry_backoff
        for attempt in range(self.retries + 1):
            try:
                return call()
            except (BrokerConnectionError, RequestTimeoutError) as exc:
                if attempt == self.retries:
                    raise type(exc)(f"{what}: {exc} (after {attempt + 1} attempts)") from None
            except BrokerError as exc:
                if not exc.retriable or attempt == self.retries:
                    raise
            time.sleep(backoff)
            backoff = min(backoff * 2, 5.0)
            with contextlib.suppress(ClientError, BrokerError):
                self._metadata_once()
        raise AssertionError("unreachable")

    # ---- metadata ----------------------------------------------------------------------

    def metadata(self, topics: Sequence[str] | None = None) -> ClusterMetadata:
        """Brokers and topics (all of them when ``topics`` is None); refreshes the leaders the
        client sends requests to."""
        return self._with_retries(lambda: self._metadata_once(topics), "Metadata")

    def _metadata_once(self, topics: Sequence[str] | None = None) -> ClusterMetadata:
        request = m.MetadataRequest(
            topics=None
            if topics is None
            else [m.MetadataRequest.MetadataRequestTopic(name=t) for t in topics],
            allow_auto_topic_creation=False,
        )
        response = self._any_connection().request(request, timeout=self.request_timeout)
        brokers = {b.node_id: (b.host, b.port) for b in response.brokers}
        self._brokers.update(brokers)
        found = {}
        for t in response.topics:
            partitions = {
                p.partition_index: PartitionInfo(
                    p.partition_index,
                    p.leader_id,
                    p.leader_epoch,
                    list(p.replica_nodes),
                    list(p.isr_nodes),
                    p.error_code,
                )
                for p in t.partitions
            }
            found[t.name] = TopicInfo(t.name, t.topic_id, partitions, t.error_code, t.is_internal)
        cluster = ClusterMetadata(brokers, found, response.controller_id, response.cluster_id)
        if self._cluster is None or topics is None:
            self._cluster = ClusterMetadata(brokers, dict(found), cluster.controller_id, None)
        else:
            self._cluster.brokers = brokers
            self._cluster.topics.update(found)
        return cluster

    def _topic(self, topic: str, *, refresh: bool = False) -> TopicInfo:
        info = None if self._cluster is None or refresh else self._cluster.topics.get(topic)
        if info is None or info.error_code:
            info = self.metadata([topic]).topics.get(topic)
        if info is None:
            raise UnknownTopicOrPartitionError(topic)
        raise_for_code(info.error_code, f"topic {topic!r}")
        return info

    def partitions_for(self, topic: str) -> list[int]:
        """The partition numbers of ``topic``.

        :raises UnknownTopicOrPartitionError: no such topic.
        """
        return sorted(self._topic(topic, refresh=True).partitions)

    def _leader(self, tp: TopicPartition) -> int:
        info = self._topic(tp.topic)
        part = info.partitions.get(tp.partition)
        if part is None:
            raise UnknownTopicOrPartitionError(f"{tp.topic}-{tp.partition}")
        raise_for_code(part.error_code, f"{tp.topic}-{tp.partition}")
        return part.leader

    def _by_leader(self, tps: Iterable[TopicPartition]) -> dict[int, list[TopicPartition]]:
        groups: dict[int, list[TopicPartition]] = {}
        for tp in tps:
            groups.setdefault(self._leader(tp), []).append(tp)
        return groups

    # ---- offsets -----------------------------------------------------------------------

    def list_offsets(
        self, specs: Mapping[TopicPartition, int], *, isolation_level: int = READ_UNCOMMITTED
    ) -> dict[TopicPartition, OffsetAndTimestamp]:
        """Offsets by spec: EARLIEST, LATEST (the high watermark, or the last stable offset
        with READ_COMMITTED) or a timestamp in ms (the first offset whose timestamp is at
        least that, offset -1 when there is none)."""
        specs = {TopicPartition(*tp): spec for tp, spec in specs.items()}

        def call():
            found = {}
            for leader, tps in self._by_leader(specs).items():
                topics: dict[str, list] = {}
                for tp in tps:
                    topics.setdefault(tp.topic, []).append(
                        m.ListOffsetsRequest.ListOffsetsPartition(
                            partition_index=tp.partition, timestamp=specs[tp]
                        )
                    )
                request = m.ListOffsetsRequest(
                    replica_id=-1,
                    isolation_level=isolation_level,
                    topics=[
                        m.ListOffsetsRequest.ListOffsetsTopic(name=name, partitions=parts)
                        for name, parts in topics.items()
                    ],
                    timeout_ms=int(self.request_timeout * 1000),
                )
                response = self._node(leader).request(request)
                for t in response.topics:
                    for p in t.partitions:
                        raise_for_code(p.error_code, f"{t.name}-{p.partition_index}")
                        found[TopicPartition(t.name, p.partition_index)] = OffsetAndTimestamp(
                            p.offset, p.timestamp
                        )
            missing = set(specs) - set(found)
            if missing:
                raise CorruptError(f"ListOffsets answer lacks {sorted(missing)}")
            latest = [tp for tp, spec in specs.items() if spec == LATEST]
            if latest:
                self._confirm_latest(found, latest, isolation_level)
            untimed = [
                tp
                for tp, spec in specs.items()
                if spec >= 0 and found[tp].offset >= 0 and found[tp].timestamp < 0
            ]
            if untimed:
                self._find_by_timestamp(found, specs, untimed)
            return found

        return self._with_retries(call, "ListOffsets")

    def _confirm_latest(self, found, tps, isolation_level) -> None:
        """Check LATEST answers against the end a fetch reports. Some brokers (Tansu 0.x)
        answer ListOffsets LATEST with the last batch's base offset + 1; a fetch's high
        watermark (last stable offset under READ_COMMITTED) is the end by definition."""
        answers = self.fetch(
            {tp: found[tp].offset for tp in tps},
            max_wait_ms=1,  # Tansu answers a fetch with max wait 0 without partitions
            partition_max_bytes=1,
            isolation_level=isolation_level,
        )
        for tp in tps:
            part = answers[tp]
            if part.error_code:
                continue  # keep ListOffsets' answer
            end = part.high_watermark
            if isolation_level == READ_COMMITTED and part.last_stable_offset >= 0:
                end = part.last_stable_offset
            found[tp] = OffsetAndTimestamp(end, found[tp].timestamp)

    def _find_by_timestamp(self, found, specs, tps) -> None:
        """Look up by reading for answers to a timestamp lookup that carry an offset but no
        timestamp: Tansu 0.x answers offset 0, timestamp -1 whatever the time asked. The
        partition is read from that offset and timestamps compared in numpy."""
        ends = self.latest_offsets(tps)
        for tp in tps:
            start = found[tp].offset
            found[tp] = OffsetAndTimestamp(-1, -1)  # no record at or after the time
            for chunk in self.read_range(tp, start, ends[tp]):
                hits = np.flatnonzero(chunk.timestamps >= specs[tp])
                if len(hits):
                    row = int(hits[0])
                    found[tp] = OffsetAndTimestamp(
                        int(chunk.offsets[row]), int(chunk.timestamps[row])
                    )
                    break

    def earliest_offsets(self, tps: Iterable[TopicPartition]) -> dict[TopicPartition, int]:
        return {tp: r.offset for tp, r in self.list_offsets(dict.fromkeys(tps, EARLIEST)).items()}

    def latest_offsets(
        self, tps: Iterable[TopicPartition], *, isolation_level: int = READ_UNCOMMITTED
    ) -> dict[TopicPartition, int]:
        found = self.list_offsets(dict.fromkeys(tps, LATEST), isolation_level=isolation_level)
        return {tp: r.offset for tp, r in found.items()}

    # ---- fetch -------------------------------------------------------------------------

    def fetch(
        self,
        positions: Mapping[TopicPartition, int],
        *,
        max_wait_ms: int = 500,
        min_bytes: int = 1,
        max_bytes: int = 52428800,
        partition_max_bytes: int = 10485760,
        isolation_level: int = READ_UNCOMMITTED,
    ) -> dict[TopicPartition, FetchedPartition]:
        """One Fetch per partition leader; each partition's raw record batches and state.
        Partition errors are reported in ``FetchedPartition.error_code``, not raised, but a
        leader change (NOT_LEADER_OR_FOLLOWER and friends) is retried."""
        positions = {TopicPartition(*tp): offset for tp, offset in positions.items()}
        results: dict[TopicPartition, FetchedPartition] = {}

        def call():
            pending = [tp for tp in positions if tp not in results]
            for leader, tps in self._by_leader(pending).items():
                got = self._fetch_from(
                    leader,
                    {tp: positions[tp] for tp in tps},
                    max_wait_ms=max_wait_ms,
                    min_bytes=min_bytes,
                    max_bytes=max_bytes,
                    partition_max_bytes=partition_max_bytes,
                    isolation_level=isolation_level,
                )
                stale = None
                for tp, part in got.items():
                    info = ERRORS.get(part.error_code)
                    if info is not None and info.retriable and part.error_code:
                        stale = part
                    else:
                        results[tp] = part
                if stale is not None:  # a leader moved: refresh and ask the new one
                    stale.raise_for_error()
            missing = [tp for tp in positions if tp not in results]
            if missing:
                raise _MissingPartitions(f"Fetch answer lacks {missing}")
            return results

        return self._with_retries(call, "Fetch")

    def _fetch_from(
        self, leader: int, positions: Mapping[TopicPartition, int], **options
    ) -> dict[TopicPartition, FetchedPartition]:
        topics: dict[str, list] = {}
        for tp, offset in positions.items():
            topics.setdefault(tp.topic, []).append(
                m.FetchRequest.FetchPartition(
                    partition=tp.partition,
                    fetch_offset=offset,
                    partition_max_bytes=options["partition_max_bytes"],
                )
            )
        ids = {name: self._topic(name).topic_id for name in topics}
        names = {topic_id: name for name, topic_id in ids.items()}
        request = m.FetchRequest(
            replica_id=-1,
            max_wait_ms=options["max_wait_ms"],
            min_bytes=options["min_bytes"],
            max_bytes=options["max_bytes"],
            isolation_level=options["isolation_level"],
            session_id=0,
            session_epoch=-1,  # no fetch session: every fetch names its partitions
            topics=[
                # both the name and the id: the version chosen keeps the one it has
                m.FetchRequest.FetchTopic(topic=name, topic_id=ids[name], partitions=parts)
                for name, parts in topics.items()
            ],
        )
        conn = self._node(leader)
        # Fetch 13+ names topics by id: only when the broker knows the ids
        newest = None if all(i != _NO_TOPIC_ID for i in ids.values()) else 12
        timeout = self.request_timeout + options["max_wait_ms"] / 1000
        response = conn.request(request, newest=newest, timeout=timeout)
        raise_for_code(response.error_code, "Fetch")
        out = {}
        for t in response.responses:
            name = t.topic or names.get(t.topic_id)
            for p in t.partitions:
                tp = TopicPartition(name, p.partition_index)
                aborted = p.aborted_transactions
                out[tp] = FetchedPartition(
                    tp,
                    memoryview(p.records if p.records is not None else b""),
                    p.error_code,
                    p.high_watermark,
                    p.last_stable_offset,
                    p.log_start_offset,
                    None if aborted is None else [(a.producer_id, a.first_offset) for a in aborted],
                )
        return out

    def read_range(
        self,
        tp: TopicPartition,
        start: int,
        end: int | None = None,
        *,
        isolation_level: int = READ_UNCOMMITTED,
        verify_crc: bool = True,
        partition_max_bytes: int = 10485760,
        max_wait_ms: int = 500,
    ) -> Iterator[RecordChunk]:
        """The records of one partition with ``start <= offset < end``, in offset order, as
        RecordChunks (no Python object per record). ``end`` None: the high watermark (the last
        stable offset with READ_COMMITTED) when the read starts. Control records, and with
        READ_COMMITTED the records of aborted transactions, are left out; offsets removed by
        compaction or retention inside the range are skipped.

        :raises OffsetOutOfRangeError: ``start`` is below the log start offset or past the end.
        """
        tp = TopicPartition(*tp)
        if end is None:
            end = self.latest_offsets([tp], isolation_level=isolation_level)[tp]
        position = start
        limit = partition_max_bytes
        while position < end:
            part = self.fetch(
                {tp: position},
                isolation_level=isolation_level,
                partition_max_bytes=limit,
                max_bytes=max(limit, 52428800),
                max_wait_ms=max_wait_ms,
            )[tp]
            if part.error_code == ErrorCode.OFFSET_OUT_OF_RANGE:
                raise OffsetOutOfRangeError(
                    f"{tp.topic}-{tp.partition}: offset {position} is outside "
                    f"[{part.log_start_offset}, {part.high_watermark}]"
                )
            part.raise_for_error()
            if not part.log_start_offset <= position <= part.high_watermark:
                # brokers that answer such a fetch with no records and no error
                raise OffsetOutOfRangeError(
                    f"{tp.topic}-{tp.partition}: offset {position} is outside "
                    f"[{part.log_start_offset}, {part.high_watermark}]"
                )
            stable = (
                part.last_stable_offset
                if isolation_level == READ_COMMITTED and part.last_stable_offset >= 0
                else part.high_watermark
            )
            if len(part.records) == 0:
                if stable <= position:
                    return  # the partition ends before `end`: nothing more to read
                continue
            # an empty list still drops control batches; aborted ones only with READ_COMMITTED
            aborted = part.aborted_transactions if isolation_level == READ_COMMITTED else None
            view = decode_records(
                part.records, verify_crc=verify_crc, aborted_transactions=aborted or []
            )
            if view.num_batches == 0 and view.next_offset <= position:
                # one batch larger than the partition limit: ask again with room for it
                if limit >= self.max_frame_size:
                    raise ClientError(
                        f"{tp.topic}-{tp.partition}: the batch at offset {position} does not "
                        f"fit in {self.max_frame_size} bytes"
                    )
                limit = min(limit * 4, self.max_frame_size)
                continue
            next_offset = view.next_offset
            if next_offset <= position:
                raise CorruptError(
                    f"{tp.topic}-{tp.partition}: fetch at offset {position} made no progress",
                    batch_offset=position,
                )
            offsets = view.offsets
            lo = int(np.searchsorted(offsets, position, "left")) if len(offsets) else 0
            hi = int(np.searchsorted(offsets, end, "left")) if len(offsets) else 0
            position = min(next_offset, end)
            if hi > lo:
                yield RecordChunk(tp, view, lo, hi, position)

    # ---- produce -----------------------------------------------------------------------

    def produce(
        self,
        tp: TopicPartition,
        batches: bytes | Sequence[bytes],
        *,
        acks: int = -1,
        timeout_ms: int = 30000,
        transactional_id: str | None = None,
    ) -> ProduceResult:
        """Append record batches (from BatchBuilder / build_batches) to one partition; one
        Produce request per batch (brokers take one batch per partition per request)."""
        tp = TopicPartition(*tp)
        if isinstance(batches, (bytes, bytearray, memoryview)):
            batches = [batches]
        first = None
        for batch in batches:
            result = self._produce_one(tp, batch, acks, timeout_ms, transactional_id)
            first = first or result
        if first is None:
            raise ValueError("no batches to produce")
        return first

    def _produce_one(self, tp, batch, acks, timeout_ms, transactional_id) -> ProduceResult:
        request = m.ProduceRequest(
            transactional_id=transactional_id,
            acks=acks,
            timeout_ms=timeout_ms,
            topic_data=[
                m.ProduceRequest.TopicProduceData(
                    name=tp.topic,
                    partition_data=[
                        m.ProduceRequest.PartitionProduceData(index=tp.partition, records=batch)
                    ],
                )
            ],
        )

        def call():
            conn = self._node(self._leader(tp))
            response = conn.request(request, timeout=self.request_timeout + timeout_ms / 1000)
            if response is None:
                return ProduceResult(-1, -1, -1)
            for t in response.responses:
                for p in t.partition_responses:
                    raise_for_code(p.error_code, p.error_message or f"{tp.topic}-{tp.partition}")
                    return ProduceResult(p.base_offset, p.log_append_time_ms, p.log_start_offset)
            raise CorruptError(f"Produce answer lacks {tp.topic}-{tp.partition}")

        # Retrying a produce after a lost answer can write the batch twice unless it is
        # idempotent (producer id and sequence set): the broker then drops the duplicate.
        return self._with_retries(call, "Produce")

    def produce_columns(
        self,
        tp: TopicPartition,
        values,
        *,
        keys=None,
        timestamps=None,
        headers=None,
        compression=None,
        acks: int = -1,
        max_batch_bytes: int = 1048576,
        producer: IdempotentProducer | None = None,
        timeout_ms: int = 30000,
    ) -> ProduceResult:
        """Encode columns (as build_batches takes them: Arrow, numpy or lists) into batches
        and produce them to one partition. With ``producer`` the batches carry its producer
        id, epoch and sequence numbers (exactly-once appends per partition)."""
        tp = TopicPartition(*tp)
        producer_fields = {} if producer is None else producer._next_fields(tp)
        batches = build_batches(
            values,
            keys=keys,
            timestamps=timestamps,
            headers=headers,
            compression=compression,
            max_bytes=max_batch_bytes,
            **producer_fields,
        )
        if not batches:
            raise ValueError("no records to produce")
        result = self.produce(tp, batches, acks=acks, timeout_ms=timeout_ms)
        if producer is not None:
            producer._advance(tp, len(values))
        return result

    def init_producer_id(
        self, transactional_id: str | None = None, *, transaction_timeout_ms: int = 60000
    ) -> tuple[int, int]:
        """A producer id and epoch from the broker (InitProducerId)."""
        if transactional_id is not None:
            raise NotImplementedError("transactional producers need a coordinator lookup")

        def call():
            response = self._any_connection().request(
                m.InitProducerIdRequest(
                    transactional_id=None,
                    transaction_timeout_ms=transaction_timeout_ms,
                    producer_id=-1,
                    producer_epoch=-1,
                )
            )
            raise_for_code(response.error_code, "InitProducerId")
            return response.producer_id, response.producer_epoch

        return self._with_retries(call, "InitProducerId")

    def idempotent_producer(self) -> IdempotentProducer:
        """A producer identity for produce_columns(..., producer=...)."""
        producer_id, epoch = self.init_producer_id()
        return IdempotentProducer(producer_id, epoch)

    # ---- topics ------------------------------------------------------------------------

    def _controller(self) -> _Connection:
        cluster = self.metadata([])
        if cluster.controller_id >= 0 and cluster.controller_id in self._brokers:
            return self._node(cluster.controller_id)
        return self._any_connection()

    def create_topics(
        self,
        topics: Mapping[str, int] | Sequence[str],
        *,
        num_partitions: int = 1,
        replication_factor: int = 1,
        configs: Mapping[str, str] | None = None,
        timeout_ms: int = 30000,
        exist_ok: bool = True,
    ) -> None:
        """Create topics (a mapping gives each its partition count) and wait until their
        leaders are known."""
        counts = dict(topics) if isinstance(topics, Mapping) else dict.fromkeys(topics, None)
        request = m.CreateTopicsRequest(
            topics=[
                m.CreateTopicsRequest.CreatableTopic(
                    name=name,
                    num_partitions=num_partitions if count is None else count,
                    replication_factor=replication_factor,
                    configs=[
                        m.CreateTopicsRequest.CreatableTopicConfig(name=k, value=v)
                        for k, v in (configs or {}).items()
                    ],
                )
                for name, count in counts.items()
            ],
            timeout_ms=timeout_ms,
        )
        response = self._controller().request(
            request, timeout=self.request_timeout + timeout_ms / 1000
        )
        for t in response.topics:
            if exist_ok and t.error_code == ErrorCode.TOPIC_ALREADY_EXISTS:
                continue
            raise_for_code(t.error_code, t.error_message or t.name)
        self._await_topics(list(counts), timeout_ms)

    def _await_topics(self, names: list[str], timeout_ms: int) -> None:
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            topics = self.metadata(names).topics
            ready = all(
                n in topics
                and not topics[n].error_code
                and topics[n].partitions
                and all(p.leader >= 0 for p in topics[n].partitions.values())
                for n in names
            )
            if ready:
                return
            if time.monotonic() > deadline:
                raise RequestTimeoutError(f"topics {names} have no leaders after {timeout_ms} ms")
            time.sleep(0.05)

    def delete_topics(self, names: Sequence[str], *, timeout_ms: int = 30000) -> None:
        request = m.DeleteTopicsRequest(
            topics=[m.DeleteTopicsRequest.DeleteTopicState(name=n) for n in names],
            topic_names=list(names),
            timeout_ms=timeout_ms,
        )
        response = self._controller().request(
            request, timeout=self.request_timeout + timeout_ms / 1000
        )
        for t in response.responses:
            raise_for_code(t.error_code, t.error_message or t.name)
        if self._cluster is not None:
            for n in names:
                self._cluster.topics.pop(n, None)


@dataclass
class IdempotentProducer:
    """A producer id and epoch with the next sequence number of each partition."""

    producer_id: int
    producer_epoch: int
    sequences: dict[TopicPartition, int] = field(default_factory=dict)

    def _next_fields(self, tp: TopicPartition) -> dict[str, int]:
        return {
            "producer_id": self.producer_id,
            "producer_epoch": self.producer_epoch,
            "base_sequence": self.sequences.get(tp, 0),
        }

    def _advance(self, tp: TopicPartition, records: int) -> None:
        # sequence numbers wrap at 2^31 as Java's producer does
        self.sequences[tp] = (self.sequences.get(tp, 0) + records) & 0x7FFFFFFF
