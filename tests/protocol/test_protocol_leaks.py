"""Decoding and encoding, on success and on failure, leave no memory behind."""

import gc
import sys
import uuid

import pytest

from kafkawire import messages
from kafkawire.errors import DecodeError, EncodeError
from kafkawire.protocol import decode, decode_response, encode, encode_response

R = messages.MetadataResponse
MSG = R(
    cluster_id="cluster-a",
    brokers=[R.MetadataResponseBroker(host="host-1", rack="rack-1")],
    topics=[
        R.MetadataResponseTopic(
            name="topic-1",
            topic_id=uuid.UUID(int=7),
            partitions=[R.MetadataResponsePartition(replica_nodes=[1, 2, 3])],
        )
    ],
)
DATA = encode(MSG, version=12)
API = messages.ApiVersionsResponse(finalized_features_epoch=3)
API._unknown_tagged_fields = [(77, b"xy")]
API_DATA = encode_response(API, version=3, correlation_id=1, size_prefix=False)


def decode_ok():
    decode(R, DATA, version=12)
    decode_response(API_DATA, api_key=18, api_version=3)


def encode_ok():
    encode(MSG, version=12)
    encode_response(API, version=3, correlation_id=1)


def decode_fails():
    with pytest.raises(DecodeError):
        decode(R, DATA[:-9], version=12)


def encode_fails():
    bad = messages.MetadataRequest(
        topics=[messages.MetadataRequest.MetadataRequestTopic(name=None)]
    )
    with pytest.raises(EncodeError):
        encode(bad, version=1)


@pytest.mark.parametrize("work", [decode_ok, encode_ok, decode_fails, encode_fails])
def test_no_leaks(work):
    for _ in range(100):
        work()
    gc.collect()
    before = sys.getallocatedblocks()
    for _ in range(1000):
        work()
    gc.collect()
    assert sys.getallocatedblocks() - before < 100  # i.e. < 0.1 block per call
