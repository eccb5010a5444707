"""Every (message, version): defaults and random instances survive encode -> decode -> encode."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kw_protocol_helpers import PAIRS, instances, pair_id

from kafkawire.protocol import (
    decode,
    decode_request,
    decode_response,
    encode,
    encode_request,
    encode_response,
)

SETTINGS = settings(
    max_examples=6,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_default_instance_round_trips(pair):
    cls, version = pair
    msg = cls()
    data = encode(msg, version=version)
    back = decode(cls, data, version=version)
    assert back == msg
    assert encode(back, version=version) == data


def _frame_round_trip(msg, version):
    cls = type(msg)
    if cls.message_type == "request":
        frame = encode_request(msg, version=version, correlation_id=42, client_id="kw")
        parts = encode_request(msg, version=version, correlation_id=42, client_id="kw", parts=True)
        assert b"".join(parts) == frame
        header, back = decode_request(frame[4:])
        assert (header.request_api_key, header.request_api_version) == (cls.api_key, version)
        assert encode_request(back, version=version, correlation_id=42, client_id="kw") == frame
    elif cls.message_type == "response":
        frame = encode_response(msg, version=version, correlation_id=42)
        header, back = decode_response(frame[4:], api_key=cls.api_key, api_version=version)
        assert encode_response(back, version=version, correlation_id=42) == frame
    else:
        data = encode(msg, version=version)
        back = decode(cls, data, version=version)
        assert encode(back, version=version) == data
        return back
    assert header.correlation_id == 42
    return back


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
@SETTINGS
@given(data=st.data())
def test_random_instances_round_trip(pair, data):
    cls, version = pair
    msg = data.draw(instances(cls, version))
    if version in cls.flexible_versions:
        # tags no schema uses: kept through decode and written back in ascending order
        unknown = st.lists(st.tuples(st.integers(10_000, 10_003), st.binary(max_size=3)))
        tagged = data.draw(unknown.map(lambda fs: sorted(dict(fs).items()) or None))
        msg._unknown_tagged_fields = tagged
    assert _frame_round_trip(msg, version) == msg
