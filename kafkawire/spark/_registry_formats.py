"""The schema-registry formats' options of the kafkawire data sources (valueFormat / keyFormat
avro, protobuf or json, with their schema ids, subjects and schemas, and the schema.registry.*
settings): as the options give them (``RegistryRead``, ``RegistryWrite``), checked on the
driver by ``read_formats`` and ``write_formats`` (which the read's and the write's parsers
call), and the schemas the driver fixes from them (``PlannedRead``, ``PlannedWrite``).
kafkawire.spark._registry asks the registry for those schemas (plan_read, plan_write) and
decodes and encodes with them; it imports these from here, never the other way round."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kafkawire.spark._options import (
    REGISTRY_PREFIX,
    REGISTRY_WRITE_OPTIONS,
    OptionError,
    Options,
    Subscription,
)

if TYPE_CHECKING:
    import pyarrow as pa

    from kafkawire.registry.schema import Schema


FORMATS = ("raw", "avro", "protobuf", "json")
COLUMNS = ("key", "value")


@dataclass(frozen=True)
class RegistryConfig:
    """The schema.registry.* options, picklable and hashable (the client cache's key)."""

    url: str
    # the other settings, confluent-kafka's names; out of the repr: they hold credentials
    settings: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    def config(self) -> dict[str, str]:
        return {"url": self.url, **dict(self.settings)}


def _registry_config(opts: Options, needed: bool, formats: str) -> RegistryConfig | None:
    """The schema.registry.* options (None when no column has a registry format: they are
    then unused)."""
    settings = {
        name.removeprefix(REGISTRY_PREFIX): value
        for name, value in opts.items()
        if name.startswith(REGISTRY_PREFIX)
    }
    url = settings.pop("url", None)
    if not needed:
        return None
    if not url or not url.strip():
        raise OptionError(f"{formats} needs the option schema.registry.url")
    config = RegistryConfig(url.strip(), tuple(sorted(settings.items())))
    try:  # on the driver: a misspelled or malformed setting fails the query at once
        from kafkawire.registry.client import SchemaRegistryClient

        SchemaRegistryClient.from_config(config.config()).close()  # (no request is made)
    except (ValueError, TypeError) as exc:
        raise OptionError(f"the schema.registry.* options: {exc}") from None
    return config


def _format(opts: Options, name: str) -> str:
    value = (opts.get(name) or "raw").strip().lower()
    if value not in FORMATS:
        raise OptionError(f"option {name} must be one of {', '.join(FORMATS)}, not {value!r}")
    return value


def _schema_id(opts: Options, name: str) -> int | None:
    return opts.optional_integer(name, minimum=0)


@dataclass(frozen=True)
class ColumnRead:
    """One decoded column as the options ask for it (before the registry is asked)."""

    column: str  # "key" | "value"
    format: str  # "avro" | "protobuf" | "json"
    schema_id: int | None = None
    subject: str | None = None
    on_error: str = "raise"  # "raise" | "null"

    @property
    def error_column(self) -> str | None:
        return f"{self.column}Error" if self.on_error == "null" else None


@dataclass(frozen=True)
class RegistryRead:
    registry: RegistryConfig
    columns: tuple[ColumnRead, ...]


def read_formats(opts: Options, subscription: Subscription) -> RegistryRead | None:
    """The registry-format options of a read (None: key and value stay binary)."""
    columns = []
    for column in COLUMNS:
        fmt = _format(opts, f"{column}Format")
        schema_id = _schema_id(opts, f"{column}SchemaId")
        subject = opts.get(f"{column}Subject")
        subject = subject.strip() if subject and subject.strip() else None
        errors = (opts.get(f"{column}Errors") or "raise").strip().lower()
        if errors not in ("raise", "null"):
            raise OptionError(f"option {column}Errors must be raise or null, not {errors!r}")
        if fmt == "raw":
            for name in (f"{column}SchemaId", f"{column}Subject", f"{column}Errors"):
                if name in opts:
                    raise OptionError(
                        f"option {name} needs {column}Format avro, protobuf or json "
                        f"({column}Format is raw: the {column} stays binary)"
                    )
            continue
        if schema_id is not None and subject is not None:
            raise OptionError(f"give {column}SchemaId or {column}Subject, not both")
        if schema_id is None and subject is None and single_topic(subscription) is None:
            raise OptionError(
                f"{column}Format={fmt} reads several topics (or a pattern): the reader schema "
                f"cannot default to the topic's subject; give {column}Subject or "
                f"{column}SchemaId"
            )
        columns.append(ColumnRead(column, fmt, schema_id, subject, errors))
    registry = _registry_config(
        opts, bool(columns), " and ".join(f"{c.column}Format={c.format}" for c in columns)
    )
    if not columns:
        return None
    assert registry is not None
    return RegistryRead(registry, tuple(columns))


def single_topic(sub: Subscription) -> str | None:
    """The one topic a subscription names (subscribe or assign), or None."""
    if sub.kind == "subscribe" and len(sub.topics) == 1:
        return sub.topics[0]
    if sub.kind == "assign" and len({tp.topic for tp in sub.assigned}) == 1:
        return sub.assigned[0].topic
    return None


@dataclass(frozen=True)
class PlannedColumn:
    """A decoded column fixed on the driver: the reader schema and the Spark column's Arrow
    type."""

    read: ColumnRead
    reader: Schema
    arrow_type: pa.DataType  # the Spark-compatible Arrow type of the decoded struct


@dataclass(frozen=True)
class PlannedRead:
    registry: RegistryConfig
    columns: tuple[PlannedColumn, ...]


@dataclass(frozen=True)
class ColumnWrite:
    column: str  # "key" | "value"
    format: str  # "avro" | "json" | "protobuf"
    schema_id: int | None = None
    subject: str | None = None
    schema: str | None = None  # the Avro schema text given


@dataclass(frozen=True)
class RegistryWrite:
    registry: RegistryConfig
    columns: tuple[ColumnWrite, ...]
    strategy: str = "TopicNameStrategy"
    auto_register: bool = True
    use_latest: bool = False
    record_name: str = "topLevelRecord"
    record_namespace: str = ""

    def column(self, name: str) -> ColumnWrite:
        return next(c for c in self.columns if c.column == name)


def write_formats(opts: Options) -> RegistryWrite | None:
    """The registry-format options of a write (None: key and value written as they are)."""
    from kafkawire.registry.naming import strategy_name

    columns = []
    for column in COLUMNS:
        fmt = _format(opts, f"{column}Format")
        schema_id = _schema_id(opts, f"{column}SchemaId")
        subject = opts.get(f"{column}Subject")
        subject = subject.strip() if subject and subject.strip() else None
        text = opts.get(f"{column}Schema")
        if fmt == "raw":
            for name in (f"{column}SchemaId", f"{column}Subject", f"{column}Schema"):
                if name in opts:
                    raise OptionError(
                        f"option {name} needs {column}Format avro, json or protobuf "
                        f"({column}Format is raw)"
                    )
            continue
        if schema_id is not None and (subject is not None or text is not None):
            raise OptionError(f"give {column}SchemaId alone (not with {column}Subject/Schema)")
        if text is not None:
            try:
                json.loads(text)
            except json.JSONDecodeError as exc:
                if fmt != "protobuf":  # .proto text is not JSON
                    kind = "Avro JSON" if fmt == "avro" else "a JSON Schema"
                    raise OptionError(f"option {column}Schema is not {kind}: {exc}") from None
        columns.append(ColumnWrite(column, fmt, schema_id, subject, text))
    try:
        strategy = strategy_name(opts.get("subject.name.strategy") or "TopicNameStrategy")
    except ValueError as exc:
        raise OptionError(f"option subject.name.strategy: {exc}") from None
    registry = _registry_config(
        opts, bool(columns), " and ".join(f"{c.column}Format={c.format}" for c in columns)
    )
    if not columns:
        for name in REGISTRY_WRITE_OPTIONS:
            if name in opts and not name.endswith("Format"):
                raise OptionError(
                    f"option {name} needs valueFormat or keyFormat avro, json or protobuf"
                )
        return None
    assert registry is not None
    name = (opts.get("recordName") or "topLevelRecord").strip()
    return RegistryWrite(
        registry,
        tuple(columns),
        strategy=strategy,
        auto_register=opts.flag("auto.register.schemas", True),
        use_latest=opts.flag("use.latest.version", False),
        record_name=name,
        record_namespace=(opts.get("recordNamespace") or "").strip(),
    )


@dataclass(frozen=True)
class PlannedWrite:
    registry: RegistryConfig
    schemas: tuple[tuple[str, Schema], ...]  # (column, the writer schema with its id)
