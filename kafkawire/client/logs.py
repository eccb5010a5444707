"""The client's logging, through Python's ``logging``: librdkafka's ``debug`` contexts turn the
matching ``kafkawire.*`` loggers to DEBUG, and ``logger=`` (confluent-kafka's setting) names a
``logging.Logger`` that takes the client's messages instead of its own loggers."""

from __future__ import annotations

import logging
import sys
import threading
from typing import Any

# librdkafka's debug contexts -> the kafkawire loggers they switch to DEBUG ("all": every one)
CONTEXTS: dict[str, tuple[str, ...]] = {
    "generic": ("kafkawire.client",),
    "broker": ("kafkawire.broker",),
    "topic": ("kafkawire.metadata",),
    "metadata": ("kafkawire.metadata",),
    "feature": ("kafkawire.broker",),
    "queue": ("kafkawire.producer",),
    "msg": ("kafkawire.producer",),
    "protocol": ("kafkawire.protocol", "kafkawire.broker"),
    "cgrp": ("kafkawire.group",),
    "security": ("kafkawire.security",),
    "fetch": ("kafkawire.consumer",),
    "interceptor": (),
    "plugin": (),
    "consumer": ("kafkawire.consumer", "kafkawire.group"),
    "admin": ("kafkawire.admin",),
    "eos": ("kafkawire.transactions", "kafkawire.producer"),
    "mock": (),
    "assignor": ("kafkawire.group",),
    "conf": ("kafkawire.config",),
    "telemetry": (),
    "all": ("kafkawire",),
}

_lock = threading.Lock()
_ignored: set[str] = set()


def debug_contexts(value: Any) -> tuple[str, ...]:
    """``"broker,protocol"`` (librdkafka's CSV) or a sequence of names: the contexts, checked."""
    if isinstance(value, str):
        names = [n.strip().lower() for n in value.split(",")]
    elif isinstance(value, (list, tuple, set, frozenset)):
        names = [str(n).strip().lower() for n in value]
    else:
        raise TypeError(f"expects comma-separated contexts, not a {type(value).__name__}")
    names = [n for n in names if n]
    unknown = [n for n in names if n not in CONTEXTS]
    if unknown:
        raise ValueError(f"unknown debug context {unknown[0]!r} (known: {', '.join(CONTEXTS)})")
    return tuple(dict.fromkeys(names))


def logger_setting(value: Any) -> logging.Logger | logging.LoggerAdapter | None:
    if value is None or isinstance(value, (logging.Logger, logging.LoggerAdapter)):
        return value
    raise TypeError(f"expects a logging.Logger, not a {type(value).__name__}")


def apply_debug(contexts: tuple[str, ...]) -> list[str]:
    """Turn the loggers of ``contexts`` to DEBUG (for the process: loggers are global, as
    librdkafka's debug output is); when logging is not set up at all, the messages go to
    stderr as librdkafka's do. The logger names, for tests."""
    names = sorted({name for c in contexts for name in CONTEXTS[c]})
    with _lock:
        for name in names:
            logging.getLogger(name).setLevel(logging.DEBUG)
        root, package = logging.getLogger(), logging.getLogger("kafkawire")
        if names and not root.handlers and not package.handlers:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
            package.addHandler(handler)
    return names


def client_logger(config: Any, name: str) -> logging.Logger | logging.LoggerAdapter:
    """The logger a client module writes to: the client's ``logger=`` when given (its level
    and handlers decide), else ``kafkawire.<name>``."""
    given = getattr(config, "logger", None)
    return given if given is not None else logging.getLogger(f"kafkawire.{name}")


def log_ignored(name: str, why: str) -> None:
    """One INFO line per property per process: ``name`` is taken and means nothing here."""
    with _lock:
        if name in _ignored:
            return
        _ignored.add(name)
    logging.getLogger("kafkawire.config").info("property %r is ignored: %s", name, why)
