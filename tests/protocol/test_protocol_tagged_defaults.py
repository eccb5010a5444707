"""Tagged struct fields are written only when they differ from their default (the encoder
compares them field by field in C; these pin down what counts as a default)."""

from __future__ import annotations

import pytest

from kafkawire import EncodeError
from kafkawire import messages as m
from kafkawire.protocol import decode, encode

FR = m.FetchResponse


def partition(**fields) -> FR:
    return FR(
        responses=[FR.FetchableTopicResponse(topic="t", partitions=[FR.PartitionData(**fields)])]
    )


def test_default_tagged_structs_are_not_written():
    plain = encode(partition(), version=12)
    # a fresh instance equal to the default is still the default
    same = encode(partition(current_leader=FR.LeaderIdAndEpoch()), version=12)
    assert same == plain


def test_changed_tagged_struct_is_written_and_read_back():
    plain = encode(partition(), version=12)
    for field, value in [
        ("current_leader", FR.LeaderIdAndEpoch(leader_id=3, leader_epoch=9)),
        ("diverging_epoch", FR.EpochEndOffset(epoch=2)),
        ("snapshot_id", FR.SnapshotId(end_offset=5)),
    ]:
        data = encode(partition(**{field: value}), version=12)
        assert len(data) > len(plain)
        back = decode(FR, data, version=12)
        assert getattr(back.responses[0].partitions[0], field) == value


def test_unknown_tagged_fields_inside_a_tagged_struct_make_it_non_default():
    leader = FR.LeaderIdAndEpoch()
    leader._unknown_tagged_fields = [(7, b"\x01\x02")]
    data = encode(partition(current_leader=leader), version=12)
    back = decode(FR, data, version=12).responses[0].partitions[0].current_leader
    assert back._unknown_tagged_fields == [(7, b"\x01\x02")]
    assert encode(decode(FR, data, version=12), version=12) == data


def two_partitions() -> FR:
    return FR(
        responses=[
            FR.FetchableTopicResponse(
                topic="t", partitions=[FR.PartitionData(partition_index=i) for i in range(2)]
            )
        ]
    )


def test_absent_tagged_structs_of_a_decoded_message_are_fresh_defaults():
    import copy
    import pickle

    data = encode(two_partitions(), version=12)
    msg = decode(FR, data, version=12)
    first, second = msg.responses[0].partitions
    assert first.current_leader == FR.LeaderIdAndEpoch()
    assert first.current_leader is first.current_leader  # made once, then kept
    assert first.current_leader is not second.current_leader  # never shared
    second.snapshot_id.epoch = 4  # mutating one partition's default leaves the other alone
    assert first.snapshot_id.epoch == -1
    back = decode(FR, encode(msg, version=12), version=12)
    assert back.responses[0].partitions[1].snapshot_id.epoch == 4
    assert back.responses[0].partitions[0].snapshot_id == FR.SnapshotId()
    # untouched defaults behave like set ones for equality, repr, copies and pickles
    fresh = decode(FR, data, version=12)
    assert fresh == decode(FR, data, version=12) == two_partitions()
    assert "current_leader=FetchResponse.LeaderIdAndEpoch(" in repr(fresh)
    assert pickle.loads(pickle.dumps(fresh)) == fresh
    assert copy.deepcopy(fresh) == fresh
    assert encode(fresh, version=12) == data
    with pytest.raises(AttributeError):
        del fresh.responses[0].partitions[0].current_leader


def test_untouched_default_structs_encode_at_a_version_that_lacks_them():
    # versions before 12 lack the three structs: an untouched (empty) slot is their default
    msg = decode(FR, encode(two_partitions(), version=12), version=12)
    assert encode(msg, version=4) == encode(two_partitions(), version=4)
    msg.responses[0].partitions[0].current_leader.leader_id = 2
    with pytest.raises(EncodeError, match="current_leader"):
        encode(msg, version=4)
