"""confluent-kafka style schema registry settings (``schema.registry.url``,
``basic.auth.user.info``, ``max.retries``...) read into :class:`SchemaRegistryClient`'s
keyword arguments, for ``SchemaRegistryClient.from_config`` and its ``config=``."""

from __future__ import annotations

import difflib
import urllib.parse
from collections.abc import Mapping
from typing import Any

# confluent-kafka's SchemaRegistryClient keys (each also with a "schema.registry." prefix, as
# Spark and Kafka Connect users write them)
_CONFIG_KEYS = (
    "url",
    "basic.auth.user.info",
    "basic.auth.credentials.source",
    "bearer.auth.token",
    "bearer.auth.credentials.source",
    "bearer.auth.logical.cluster",
    "bearer.auth.identity.pool.id",
    "ssl.ca.location",
    "ssl.certificate.location",
    "ssl.key.location",
    "ssl.key.password",
    "timeout.ms",
    "request.timeout.ms",
    "max.retries",
    "retries.wait.ms",
    "retries.max.wait.ms",
    "cache.latest.ttl.sec",
)
_KNOWN_KEYS = (*_CONFIG_KEYS, *(f"schema.registry.{k}" for k in _CONFIG_KEYS))

# the constructor's keyword defaults a config may fill in
DEFAULTS: dict[str, Any] = {
    "basic_auth": None,
    "bearer_token": None,
    "ssl_cafile": None,
    "ssl_certfile": None,
    "ssl_keyfile": None,
    "ssl_key_password": None,
    "timeout": 10.0,
    "retries": 3,
    "retry_backoff": 0.2,
    "retry_backoff_max": 5.0,
    "latest_ttl": 30.0,
    "headers": None,
}


def _number(key: str, value: object, kind: type) -> Any:
    try:
        number = kind(str(value).strip())
    except ValueError:
        raise ValueError(
            f"schema registry setting {key!r} must be a number, not {value!r}"
        ) from None
    if number < 0:
        raise ValueError(f"schema registry setting {key!r} must not be negative, not {value!r}")
    return number


def parse_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """confluent-kafka style settings -> the constructor's keyword arguments (and "url")."""
    if not isinstance(config, Mapping):
        raise TypeError(f"config must be a mapping, not {type(config).__name__}")
    settings: dict[str, Any] = {}
    for key, value in config.items():
        if key not in _KNOWN_KEYS:
            close = difflib.get_close_matches(str(key), _KNOWN_KEYS, n=1, cutoff=0.5)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ValueError(f"unknown schema registry setting {key!r}{hint}")
        name = key.removeprefix("schema.registry.")
        if name == "request.timeout.ms":
            name = "timeout.ms"
        if name in settings and settings[name] != value:
            raise ValueError(f"schema registry setting {name!r} given twice, with different values")
        settings[name] = value

    out: dict[str, Any] = {}
    if "url" in settings:
        out["url"] = str(settings["url"])
    source = str(settings.get("basic.auth.credentials.source", "USER_INFO")).upper()
    if source == "USER_INFO":
        if "basic.auth.user.info" in settings:
            out["basic_auth"] = str(settings["basic.auth.user.info"])
    elif source == "URL":
        if "basic.auth.user.info" in settings:
            raise ValueError(
                "basic.auth.credentials.source is URL: the credentials come from the url's "
                "userinfo, so basic.auth.user.info must not be set"
            )
        if "@" not in urllib.parse.urlsplit(str(settings.get("url", "")).split(",")[0]).netloc:
            raise ValueError(
                "basic.auth.credentials.source is URL but the url has no user:password@"
            )
    else:
        raise ValueError(
            f"basic.auth.credentials.source {source!r} is not supported (USER_INFO or URL)"
        )
    bearer_source = str(settings.get("bearer.auth.credentials.source", "STATIC_TOKEN")).upper()
    if bearer_source != "STATIC_TOKEN":
        raise ValueError(
            f"bearer.auth.credentials.source {bearer_source!r} is not supported (STATIC_TOKEN; "
            "pass a callable as bearer_token for tokens that refresh)"
        )
    if "bearer.auth.token" in settings:
        out["bearer_token"] = str(settings["bearer.auth.token"])
    headers = {}
    if "bearer.auth.logical.cluster" in settings:
        headers["target-sr-cluster"] = str(settings["bearer.auth.logical.cluster"])
    if "bearer.auth.identity.pool.id" in settings:
        headers["Confluent-Identity-Pool-Id"] = str(settings["bearer.auth.identity.pool.id"])
    if headers:
        out["headers"] = headers
    for key, arg in (
        ("ssl.ca.location", "ssl_cafile"),
        ("ssl.certificate.location", "ssl_certfile"),
        ("ssl.key.location", "ssl_keyfile"),
        ("ssl.key.password", "ssl_key_password"),
    ):
        if key in settings:
            out[arg] = str(settings[key])
    if "timeout.ms" in settings:
        out["timeout"] = _number("timeout.ms", settings["timeout.ms"], float) / 1000
    if "max.retries" in settings:
        out["retries"] = _number("max.retries", settings["max.retries"], int)
    if "retries.wait.ms" in settings:
        out["retry_backoff"] = _number("retries.wait.ms", settings["retries.wait.ms"], float) / 1000
    if "retries.max.wait.ms" in settings:
        wait = _number("retries.max.wait.ms", settings["retries.max.wait.ms"], float)
        out["retry_backoff_max"] = wait / 1000
    if "cache.latest.ttl.sec" in settings:
        out["latest_ttl"] = _number("cache.latest.ttl.sec", settings["cache.latest.ttl.sec"], float)
    return out
