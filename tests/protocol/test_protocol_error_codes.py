"""The error-code table, its exceptions, and a cross-check of names against kio and kafka-python."""

import pytest

from kafkawire.errors import KafkawireError
from kafkawire.protocol import error_codes as ec


def test_table_is_contiguous_and_named():
    assert sorted(ec.ERRORS) == list(range(-1, 134))
    assert ec.ErrorCode.OFFSET_OUT_OF_RANGE == 1
    assert ec.ErrorCode(6).name == "NOT_LEADER_OR_FOLLOWER"
    assert ec.ERRORS[3] == (3, "UNKNOWN_TOPIC_OR_PARTITION", True, ec.ERRORS[3].message)
    assert not ec.ERRORS[1].retriable


def test_exceptions():
    with pytest.raises(ec.NotLeaderOrFollowerError) as info:
        ec.raise_for_code(6, "topic t partition 0")
    err = info.value
    assert isinstance(err, ec.BrokerError) and isinstance(err, KafkawireError)
    assert (err.code, err.retriable) == (6, True)
    assert "topic t partition 0" in str(err)
    assert ec.error_class(1) is ec.OffsetOutOfRangeError
    assert ec.error_class(0) is None
    ec.raise_for_code(0)
    with pytest.raises(ec.UnknownBrokerError, match="unknown error code 4242"):
        ec.raise_for_code(4242)


def test_names_agree_with_kio():
    kio_errors = pytest.importorskip("kio.schema.errors")
    for code, info in ec.ERRORS.items():
        assert kio_errors.ErrorCode(code).name.upper() == info.name


def test_retriable_agrees_with_kafka_python():
    errors = pytest.importorskip("kafka.errors")
    theirs = {
        c.errno: c.retriable
        for c in vars(errors).values()
        if isinstance(c, type) and isinstance(getattr(c, "errno", None), int)
    }
    # kafka-python marks CORRUPT_MESSAGE not retriable; Kafka's CorruptRecordException is.
    differ = {
        code for code, r in theirs.items() if code in ec.ERRORS and ec.ERRORS[code].retriable != r
    }
    assert differ == {2}
