"""Tagged struct fields are written only when they differ from their default (the encoder
compares them field by field in C; these pin down what counts as a default)."""

from __future__ import annotations

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
