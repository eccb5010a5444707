"""ApiVersions negotiation: which version of each API a client and a broker both speak.

A client opens a connection with an ApiVersionsRequest at the newest version it knows. A broker
that does not know that version answers UNSUPPORTED_VERSION (35) with a version 0 body that lists
only ApiVersions (key 18) and its range, and the client asks again at a version in that range
(KIP-511); other brokers write that answer differently (below). ``decode_api_versions_response``
reads every such answer; ``downgrade_response`` writes the broker's side of it for mock brokers
and proxies.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping

from kafkawire.errors import DecodeError, TruncatedError
from kafkawire.protocol._codec import decode_response, encode_response
from kafkawire.protocol._generated_messages import (
    REQUESTS,
    ApiKey,
    ApiVersionsResponse,
    ResponseHeader,
)
from kafkawire.protocol.error_codes import ErrorCode, UnsupportedVersionError

_API_VERSIONS = int(ApiKey.API_VERSIONS)
_HEAD = struct.Struct(">ih")  # correlation id (response header v0), error code


def supported_versions() -> dict[int, tuple[int, int]]:
    """Every API key kafkawire encodes, with the (oldest, newest) version of its request."""
    return {
        key: (cls.valid_versions.start, cls.valid_versions.stop - 1)
        for key, cls in REQUESTS.items()
    }


def broker_versions(response: ApiVersionsResponse) -> dict[int, tuple[int, int]]:
    """The (min, max) version a broker announced for each API key."""
    return {a.api_key: (a.min_version, a.max_version) for a in response.api_keys}


def negotiate(
    broker: Mapping[int, tuple[int, int]] | ApiVersionsResponse,
    ours: Mapping[int, tuple[int, int]] | None = None,
) -> dict[int, int]:
    """The newest version both sides speak, per API key; keys without a common version are
    left out. ``ours`` defaults to everything kafkawire encodes (``supported_versions()``)."""
    if isinstance(broker, ApiVersionsResponse):
        broker = broker_versions(broker)
    ours = supported_versions() if ours is None else ours
    chosen = {}
    for key, (their_min, their_max) in broker.items():
        if key not in ours:
            continue
        low, high = max(ours[key][0], their_min), min(ours[key][1], their_max)
        if low <= high:
            chosen[key] = high
    return chosen


def choose_version(
    versions: Mapping[int, int], api_key: int, *, oldest: int = 0, newest: int | None = None
) -> int:
    """The version to send for ``api_key``: the negotiated one, capped at ``newest``.

    :raises UnsupportedVersionError: the broker lacks the API or only speaks versions older
        than ``oldest`` (the oldest one the caller can use).
    """
    name = ApiKey(api_key).name if api_key in ApiKey._value2member_map_ else str(api_key)
    if api_key not in versions:
        raise UnsupportedVersionError(f"the broker does not support {name}")
    version = versions[api_key] if newest is None else min(versions[api_key], newest)
    if version < oldest:
        raise UnsupportedVersionError(
            f"{name}: the broker speaks up to version {versions[api_key]}, "
            f"kafkawire needs at least {oldest}"
        )
    return version


def decode_api_versions_response(frame, requested_version: int):
    """(ResponseHeader, ApiVersionsResponse, version decoded) for an answer to an
    ApiVersionsRequest sent at ``requested_version``; ``frame`` has no size prefix.

    A broker that does not speak ``requested_version`` answers UNSUPPORTED_VERSION (35). Kafka
    writes that answer as a version 0 body; librdkafka's mock broker writes it in the layout of
    the version asked (a compact array from version 3 on). The body is read at version 0, then
    at the version asked; where neither reads, the answer counts as a downgrade answer that
    names no range, and the caller retries at ``retry_version(response, requested_version)``
    (version 0), as librdkafka and Java's client do. Only a frame too short to hold the error
    code is an error.
    """
    if len(frame) < _HEAD.size:
        raise TruncatedError(
            "an ApiVersions response needs at least 6 bytes",
            offset=len(frame),
            field="ApiVersionsResponse.error_code",
        )
    correlation_id, error_code = _HEAD.unpack_from(frame, 0)
    if error_code != ErrorCode.UNSUPPORTED_VERSION:
        header, response = decode_response(
            frame, api_key=_API_VERSIONS, api_version=requested_version
        )
        return header, response, requested_version
    for version in dict.fromkeys((0, requested_version)):
        try:
            header, response = decode_response(frame, api_key=_API_VERSIONS, api_version=version)
        except DecodeError:
            continue
        if _API_VERSIONS in broker_versions(response):
            return header, response, version
    header = ResponseHeader(correlation_id=correlation_id)
    return header, ApiVersionsResponse(error_code=error_code), 0


def retry_version(response: ApiVersionsResponse, requested_version: int | None = None) -> int:
    """The ApiVersions version to ask again with after a downgrade answer: the newest one both
    the broker (its entry for key 18) and kafkawire speak, below ``requested_version`` (the
    one refused); version 0 where the answer names no range."""
    ours = supported_versions()[_API_VERSIONS]
    highest = ours[1] if requested_version is None else min(ours[1], requested_version - 1)
    theirs = broker_versions(response).get(_API_VERSIONS)
    if theirs is None:
        return 0
    version = min(theirs[1], highest)
    if version < max(theirs[0], ours[0]):
        raise UnsupportedVersionError(
            f"no common ApiVersions version: broker {theirs}, kafkawire {ours}"
        )
    return version


def downgrade_response(
    correlation_id: int, *, min_version: int = 0, max_version: int | None = None
):
    """The broker's answer to an ApiVersionsRequest at a version it does not speak: error 35
    and a version 0 body listing only ApiVersions with the range the broker does speak."""
    if max_version is None:
        max_version = supported_versions()[_API_VERSIONS][1]
    body = ApiVersionsResponse(
        error_code=int(ErrorCode.UNSUPPORTED_VERSION),
        api_keys=[
            ApiVersionsResponse.ApiVersion(
                api_key=_API_VERSIONS, min_version=min_version, max_version=max_version
            )
        ],
    )
    return encode_response(body, version=0, correlation_id=correlation_id)
