"""Whole frames, headers included, re-encode byte-identically: a decoded header can be passed
back with header=, keeping its unknown tagged fields."""

from __future__ import annotations

import pytest

from kafkawire import EncodeError
from kafkawire import messages as m
from kafkawire.protocol import decode_request, decode_response, encode_request, encode_response


def with_header_tag(frame: bytes, header_end: int) -> bytes:
    """The frame with a tagged field (tag 9, 2 bytes) put into its empty header tag section."""
    assert frame[header_end - 1] == 0  # an empty tagged-field section
    return frame[: header_end - 1] + bytes([1, 9, 2, 0xAB, 0xCD]) + frame[header_end:]


def test_request_header_tagged_fields_survive():
    frame = encode_request(
        m.MetadataRequest(topics=None),
        version=12,
        correlation_id=5,
        client_id="c",
        size_prefix=False,
    )
    header_end = 2 + 2 + 4 + 2 + 1 + 1  # key, version, correlation id, client id "c", tags
    tagged = with_header_tag(frame, header_end)
    header, msg = decode_request(tagged)
    assert header._unknown_tagged_fields == [(9, b"\xab\xcd")]
    again = encode_request(msg, version=12, header=header, size_prefix=False)
    assert again == tagged
    # without header= the frame is rebuilt from correlation_id / client_id: the tag is gone
    assert (
        encode_request(msg, version=12, correlation_id=5, client_id="c", size_prefix=False) == frame
    )


def test_response_header_tagged_fields_survive():
    frame = encode_response(m.MetadataResponse(), version=12, correlation_id=8, size_prefix=False)
    tagged = with_header_tag(frame, 4 + 1)
    header, msg = decode_response(tagged, api_key=3, api_version=12)
    assert encode_response(msg, version=12, header=header, size_prefix=False) == tagged


def test_header_must_match():
    header, msg = decode_request(encode_request(m.MetadataRequest(), version=12, size_prefix=False))
    with pytest.raises(EncodeError, match="version"):
        encode_request(msg, version=11, header=header)
    with pytest.raises(EncodeError):
        encode_request(msg, version=12, header=m.ResponseHeader())
    with pytest.raises(TypeError):
        encode_response(m.MetadataResponse(), version=12)
