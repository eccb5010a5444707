"""``kafkawire inspect``: directories of segments, the --json shape with and without -v, error
codes and API keys by name, ConsumerProtocol payloads of JoinGroup / SyncGroup, and
--no-verify-crc."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafkawire import BatchBuilder, messages
from kafkawire.client.groups.assignors import (
    Assignment,
    Subscription,
    encode_assignment,
    encode_subscription,
)
from kafkawire.client.types import TopicPartition
from kafkawire.protocol import encode_request, encode_response
from tests.cli.test_cli import (
    T0,
    corrupt_segment,
    json_lines,
    metadata_exchange,
    run,
    segment_bytes,
)


def write_segment(directory: Path, base_offset: int, count: int) -> None:
    builder = BatchBuilder(base_offset=base_offset)
    for i in range(count):
        builder.append(b"v%d" % (base_offset + i), timestamp=T0 + base_offset + i)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{base_offset:020d}.log").write_bytes(builder.build())
    # what a broker keeps beside a segment: not record batches, to be left alone
    (directory / f"{base_offset:020d}.index").write_bytes(b"\x00\x00\x00\x05" * 8)
    (directory / f"{base_offset:020d}.timeindex").write_bytes(b"\x01" * 12)


# --- directories ------------------------------------------------------------------------------


def test_a_partition_directory_is_its_segments_in_offset_order(capsys, tmp_path):
    part = tmp_path / "events-0"
    for base in (100, 0, 2000, 30):  # written out of order; 2000 sorts before 30 as text
        write_segment(part, base, 3)
    (part / "leader-epoch-checkpoint").write_text("0\n1\n0 0\n")
    status, out, err = run(capsys, "inspect", "--json", str(part))
    assert (status, err) == (0, "")
    items = json_lines(out)
    segments = [i for i in items if i["type"] == "segment"]
    assert [Path(s["file"]).name for s in segments] == [
        f"{base:020d}.log" for base in (0, 30, 100, 2000)
    ]
    batches = [i for i in items if i["type"] == "batch"]
    assert [b["base_offset"] for b in batches] == [0, 30, 100, 2000]
    assert [Path(b["file"]).name for b in batches] == [Path(s["file"]).name for s in segments]


def test_a_log_dir_is_its_partitions_in_order(capsys, tmp_path):
    for partition in (10, 2, 0):  # partition 10 after 2, by number
        write_segment(tmp_path / f"orders-{partition}", partition * 1000, 1)
    write_segment(tmp_path / "audit-0", 7, 1)
    write_segment(tmp_path / "orders-1.abc-delete", 0, 1)  # a deleted partition: skipped
    status, out, _ = run(capsys, "inspect", str(tmp_path))
    assert status == 0
    shown = [
        str(Path(line.split("'")[1]).relative_to(tmp_path))
        for line in out.splitlines()
        if line.startswith("segment ")
    ]
    assert shown == [
        "audit-0/00000000000000000007.log",
        "orders-0/00000000000000000000.log",
        "orders-2/00000000000000002000.log",
        "orders-10/00000000000000010000.log",
    ]


def test_a_directory_without_segments_is_an_error(capsys, tmp_path, segment):
    (tmp_path / "nothing").mkdir()
    (tmp_path / "nothing" / "notes.txt").write_text("hello")
    status, out, err = run(capsys, "inspect", str(tmp_path / "nothing"), str(segment))
    assert status == 1
    assert f"{tmp_path / 'nothing'}: a directory without segment files" in err
    assert "or captures (*.requests)" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert out.splitlines()[-1].startswith("segment ")  # the other file is still shown


def test_a_directory_of_captures_is_its_connections_in_order(capsys, tmp_path):
    for number in (10, 2, 1):
        request, response = metadata_exchange(number)
        (tmp_path / f"conn-{number}.requests").write_bytes(request)
        (tmp_path / f"conn-{number}.responses").write_bytes(response)
    status, out, err = run(capsys, "inspect", "--json", str(tmp_path))
    assert (status, err) == (0, "")
    items = json_lines(out)
    captures = [(Path(i["file"]).name, i["responses"]) for i in items if i["type"] == "capture"]
    assert captures == [("conn-1.requests", 1), ("conn-2.requests", 1), ("conn-10.requests", 1)]
    assert [i["correlation_id"] for i in items if i["type"] == "response"] == [1, 2, 10]


@pytest.fixture
def segment(tmp_path) -> Path:
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(segment_bytes())
    return path


# --- --json: one shape whatever -v --------------------------------------------------------------


def same_shape(terse, verbose, where="") -> None:
    """Every key of ``terse`` is in ``verbose`` with a value of the same JSON type (null
    standing for any type), recursively; lists compared element by element."""
    if terse is None or verbose is None:
        return
    assert type(terse) is type(verbose), f"{where}: {terse!r} became {verbose!r}"
    if isinstance(terse, dict):
        for key, value in terse.items():
            assert key in verbose, f"{where}.{key} gone with -v"
            same_shape(value, verbose[key], f"{where}.{key}")
    elif isinstance(terse, list):
        for i, (a, b) in enumerate(zip(terse, verbose, strict=False)):
            same_shape(a, b, f"{where}[{i}]")


def produce_capture(tmp_path: Path) -> Path:
    P = messages.ProduceRequest
    R = messages.ProduceResponse
    batch = BatchBuilder()
    batch.append(b"produced", key=b"k", timestamp=T0)
    request = P(
        acks=1,
        timeout_ms=1000,
        topic_data=[
            P.TopicProduceData(
                name="events",
                partition_data=[P.PartitionProduceData(index=0, records=batch.build())],
            )
        ],
    )
    response = R(
        responses=[
            R.TopicProduceResponse(
                name="events",
                partition_responses=[R.PartitionProduceResponse(index=0, error_code=0)],
            )
        ]
    )
    requests = tmp_path / "produce.requests"
    requests.write_bytes(encode_request(request, version=9, correlation_id=5))
    (tmp_path / "produce.responses").write_bytes(
        encode_response(response, version=9, correlation_id=5)
    )
    return requests


def test_json_keeps_its_shape_with_v(capsys, tmp_path, segment):
    capture = produce_capture(tmp_path)
    for path in (segment, capture):
        _, terse, _ = run(capsys, "inspect", "--json", str(path))
        status, verbose, _ = run(capsys, "inspect", "--json", "-v", str(path))
        assert status == 0
        terse_items, verbose_items = json_lines(terse), json_lines(verbose)
        assert [i["type"] for i in terse_items] == [i["type"] for i in verbose_items]
        for a, b in zip(terse_items, verbose_items, strict=True):
            same_shape(a, b, a["type"])
    # what -v adds: the records, under keys of their own
    batches = [i for i in json_lines(run(capsys, "inspect", "--json", "-v", str(segment))[1])]
    assert batches[0]["records"] == 3
    assert [r["value"] for r in batches[0]["record_list"]] == ["value-0", "value-1", "value-2"]
    items = json_lines(run(capsys, "inspect", "--json", "-v", str(capture))[1])
    summary = items[0]["message"]["topic_data"][0]["partition_data"][0]["records"]
    assert (summary["batches"], summary["records"], summary["partial_batch_bytes"]) == (1, 1, 0)
    assert summary["batch_list"][0]["record_list"][0]["value"] == "produced"


def test_json_keys_are_there_whatever_the_input(capsys, tmp_path):
    """A magic 0 batch has the magic 2 fields as null; a capture without responses says so
    with null and 0; a records field that does not decode keeps its counts as null."""
    v0 = tmp_path / "old.log"
    old = BatchBuilder(magic=0)
    old.append(b"old", key=b"k")
    v0.write_bytes(old.build())
    items = json_lines(run(capsys, "inspect", "--json", str(v0))[1])
    assert items[0]["magic"] == 0
    assert items[0]["producer_id"] is None and items[0]["control_record"] is None
    request = encode_request(messages.MetadataRequest(topics=None), version=12, correlation_id=1)
    alone = tmp_path / "alone.requests"
    alone.write_bytes(request)
    items = json_lines(run(capsys, "inspect", "--json", str(alone))[1])
    assert items[-1] == {
        "type": "capture",
        "file": str(alone),
        "format": "kafka",
        "requests": 1,
        "responses_file": None,
        "responses": 0,
    }


# --- error codes and API keys by name ---------------------------------------------------------


def named_codes_capture(tmp_path: Path) -> Path:
    A = messages.ApiVersionsResponse
    api_versions = A(
        error_code=0,
        api_keys=[
            A.ApiVersion(api_key=0, min_version=0, max_version=11),
            A.ApiVersion(api_key=3, min_version=0, max_version=12),
            A.ApiVersion(api_key=999, min_version=0, max_version=0),
        ],
    )
    R = messages.MetadataResponse
    metadata = R(
        topics=[
            R.MetadataResponseTopic(error_code=3, name="missing"),
            R.MetadataResponseTopic(error_code=9999, name="odd"),
        ]
    )
    path = tmp_path / "named.requests"
    path.write_bytes(
        encode_request(messages.ApiVersionsRequest(), version=3, correlation_id=1)
        + encode_request(messages.MetadataRequest(topics=None), version=12, correlation_id=2)
    )
    (tmp_path / "named.responses").write_bytes(
        encode_response(api_versions, version=3, correlation_id=1)
        + encode_response(metadata, version=12, correlation_id=2)
    )
    return path


def test_error_codes_and_api_keys_have_their_names(capsys, tmp_path):
    path = named_codes_capture(tmp_path)
    status, out, _ = run(capsys, "inspect", "--json", str(path))
    assert status == 0
    items = json_lines(out)
    assert (items[0]["api"], items[0]["api_key"]) == ("API_VERSIONS", 18)
    keys = items[1]["message"]["api_keys"]
    assert [(k["api_key"], k["api_key_name"]) for k in keys] == [
        (0, "PRODUCE"),
        (3, "METADATA"),
        (999, None),
    ]
    assert items[1]["message"]["error_code"] == 0
    assert items[1]["message"]["error_code_name"] == "NONE"
    topics = items[3]["message"]["topics"]
    assert [(t["error_code"], t["error_code_name"]) for t in topics] == [
        (3, "UNKNOWN_TOPIC_OR_PARTITION"),
        (9999, None),
    ]
    status, text, _ = run(capsys, "inspect", str(path))
    assert "api_key: 3 METADATA" in text and "api_key: 999 (unknown)" in text
    assert "error_code: 3 UNKNOWN_TOPIC_OR_PARTITION" in text
    assert "error_code: 9999 (unknown)" in text


# --- ConsumerProtocol payloads --------------------------------------------------------------------


SUBSCRIPTION = Subscription(
    topics=["orders", "audit"],
    user_data=b"sticky",
    owned_partitions=[TopicPartition("orders", 1), TopicPartition("orders", 0)],
    generation_id=4,
    rack_id="rack-a",
)


def group_capture(tmp_path: Path) -> Path:
    """A consumer group's JoinGroup (v5) and SyncGroup (v3, which does not name its protocol
    type) with one assignment that is not a ConsumerProtocolAssignment, and a Connect
    group's JoinGroup whose metadata is not the consumer's."""
    J, JR = messages.JoinGroupRequest, messages.JoinGroupResponse
    S, SR = messages.SyncGroupRequest, messages.SyncGroupResponse
    subscription = encode_subscription(SUBSCRIPTION)
    assignment = encode_assignment(
        Assignment([TopicPartition("orders", 0), TopicPartition("audit", 3)], b"ud")
    )
    broken = b"\x00\x00\x00\x00\x00\x05ab"  # version 0, one topic, then a cut-off name
    join = J(
        group_id="g",
        session_timeout_ms=10000,
        rebalance_timeout_ms=10000,
        member_id="",
        protocol_type="consumer",
        protocols=[J.JoinGroupRequestProtocol(name="range", metadata=subscription)],
    )
    joined = JR(
        generation_id=5,
        protocol_name="range",
        leader="m1",
        member_id="m1",
        members=[JR.JoinGroupResponseMember(member_id="m1", metadata=subscription)],
    )
    sync = S(
        group_id="g",
        generation_id=5,
        member_id="m1",
        assignments=[
            S.SyncGroupRequestAssignment(member_id="m1", assignment=assignment),
            S.SyncGroupRequestAssignment(member_id="m2", assignment=broken),
        ],
    )
    synced = SR(assignment=assignment)
    connect = J(
        group_id="workers",
        session_timeout_ms=10000,
        rebalance_timeout_ms=10000,
        member_id="",
        protocol_type="connect",
        protocols=[J.JoinGroupRequestProtocol(name="sessioned", metadata=subscription)],
    )
    path = tmp_path / "group.requests"
    path.write_bytes(
        encode_request(join, version=5, correlation_id=1)
        + encode_request(sync, version=3, correlation_id=2)
        + encode_request(connect, version=5, correlation_id=3)
    )
    (tmp_path / "group.responses").write_bytes(
        encode_response(joined, version=5, correlation_id=1)
        + encode_response(synced, version=3, correlation_id=2)
    )
    return path


EXPECTED_SUBSCRIPTION = {
    "version": 3,
    "topics": ["audit", "orders"],
    "user_data": "sticky",
    "owned_partitions": [{"topic": "orders", "partitions": [0, 1]}],
    "generation_id": 4,
    "rack_id": "rack-a",
}
EXPECTED_ASSIGNMENT = {
    "version": 3,
    "partitions": [
        {"topic": "audit", "partitions": [3]},
        {"topic": "orders", "partitions": [0]},
    ],
    "user_data": "ud",
}


def test_consumer_protocol_payloads_are_decoded(capsys, tmp_path):
    path = group_capture(tmp_path)
    status, out, err = run(capsys, "inspect", "--json", str(path))
    assert (status, err) == (0, "")
    join, joined, sync, synced, connect, _ = json_lines(out)
    assert join["message"]["protocols"][0]["metadata"] == EXPECTED_SUBSCRIPTION
    assert joined["message"]["members"][0]["metadata"] == EXPECTED_SUBSCRIPTION
    good, bad = sync["message"]["assignments"]
    assert good["assignment"] == EXPECTED_ASSIGNMENT
    assert bad["assignment"]["raw"] == "\x00\x00\x00\x00\x00\x05ab"  # UTF-8: as text
    assert "consumer protocol assignment" in bad["assignment"]["error"]
    assert synced["message"]["assignment"] == EXPECTED_ASSIGNMENT
    # another protocol type's metadata stays bytes
    metadata = connect["message"]["protocols"][0]["metadata"]
    assert metadata["size"] == 67 and metadata["prefix"].startswith("\x00\x03\x00\x00")
    status, text, _ = run(capsys, "inspect", str(path))
    assert status == 0
    assert "        topics:\n          - 'audit'\n          - 'orders'\n" in text
    assert "rack_id: 'rack-a'" in text and "error: " in text


# --- --no-verify-crc ----------------------------------------------------------------------------


def test_no_verify_crc_shows_a_batch_whose_crc_does_not_match(capsys, tmp_path):
    bad = tmp_path / "00000000000000000000.log"
    bad.write_bytes(corrupt_segment(segment_bytes()))
    status, _, err = run(capsys, "inspect", str(bad))
    assert status == 1 and "CRC-32C mismatch" in err
    status, out, err = run(capsys, "inspect", "--json", "--no-verify-crc", str(bad))
    assert (status, err) == (0, "")
    assert json_lines(out)[-1]["records"] == 6
    # the records field of a captured Produce request, likewise
    capture = produce_capture(tmp_path)
    frame = bytearray(capture.read_bytes())
    frame[-10] ^= 0x01  # inside the batch's records
    capture.write_bytes(bytes(frame))
    items = json_lines(run(capsys, "inspect", "--json", str(capture))[1])
    summary = items[0]["message"]["topic_data"][0]["partition_data"][0]["records"]
    assert summary["records"] is None and "CRC-32C mismatch" in summary["error"]
    items = json_lines(run(capsys, "inspect", "--json", "--no-verify-crc", str(capture))[1])
    summary = items[0]["message"]["topic_data"][0]["partition_data"][0]["records"]
    assert summary["records"] == 1 and "error" not in summary
