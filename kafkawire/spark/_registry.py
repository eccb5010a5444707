"""Schema-registry formats in the Spark sources: ``valueFormat`` / ``keyFormat`` = avro,
protobuf or json (Confluent framing) decoded to struct columns on read, struct columns encoded
with registry framing on write.

Reads: the reader schema is fixed on the driver when the DataFrame is created (load()): the
schema id given, the latest version of the subject given, or the latest version of the
topic's ``<topic>-value`` / ``<topic>-key`` subject. Every value is resolved to it, whichever
schema (version) it was written with. Each partition's Arrow batch goes through
:func:`~kafkawire.registry.decode.decode_column` and its struct is cast to the planned Arrow
type, which is the Arrow type of the Spark type (Spark checks the first batch's Arrow schema
exactly).

Arrow types to Spark types (:func:`spark_type`; everything nullable):

- bool, int8/16/32/64, float16/32/64, string, binary, date, decimal128: the same;
- uint8 / uint16 / uint32: short / int / long; uint64: decimal(20, 0);
- fixed_size_binary: binary; large and view types: their plain ones;
- timestamp with a zone: timestamp (microseconds, UTC); without: timestamp_ntz;
- time32 (Avro time-millis): int (milliseconds of the day); time64 (time-micros): long
  (microseconds of the day);
- duration: interval day to second (microseconds);
- month_day_nano interval (Avro duration): struct<months: int, days: int, nanoseconds: long>;
- decimal256 (more than 38 digits): string;
- list: array; map: map; struct: struct; dictionary<T>: T; null: void.

The options of these formats, and the planned schemas the options carry to the executors,
are parsed and defined in :mod:`kafkawire.spark._registry_formats` (which does not import
this module).

One registry client per executor process and registry configuration (a module-level cache),
not one per batch: schemas by id stay cached across the tasks of a process.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from kafkawire.registry.decode import record_name
from kafkawire.registry.encode import list_parts
from kafkawire.registry.errors import PayloadError, RegistryError, SchemaError
from kafkawire.spark._options import OptionError, Subscription
from kafkawire.spark._registry_formats import (
    COLUMNS,
    ColumnWrite,
    PlannedColumn,
    PlannedRead,
    PlannedWrite,
    RegistryConfig,
    RegistryRead,
    RegistryWrite,
    single_topic,
)

if TYPE_CHECKING:
    from kafkawire.registry.client import Schema, SchemaRegistryClient


# ---- the registry client ------------------------------------------------------------------


_CLIENTS: dict[RegistryConfig, SchemaRegistryClient] = {}
_CLIENTS_LOCK = threading.Lock()


def registry_client(config: RegistryConfig) -> SchemaRegistryClient:
    """The process's client for this configuration (made on first use)."""
    with _CLIENTS_LOCK:
        client = _CLIENTS.get(config)
        if client is None:
            from kafkawire.registry.client import SchemaRegistryClient

            client = _CLIENTS[config] = SchemaRegistryClient.from_config(config.config())
        return client


def planning_client(config: RegistryConfig) -> SchemaRegistryClient:
    """A new client for the driver's planning: a subject's latest version as the registry
    has it now, not as a cached client saw it up to cache.latest.ttl.sec ago."""
    from kafkawire.registry.client import SchemaRegistryClient

    try:
        return SchemaRegistryClient.from_config(config.config())
    except ValueError as exc:
        raise OptionError(f"option schema.registry.url: {exc}") from None


# ---- reading ------------------------------------------------------------------------------


def plan_read(formats: RegistryRead, subscription: Subscription) -> PlannedRead:
    """The reader schemas, from the registry (on the driver). Raises OptionError when the
    registry has no such schema or subject."""
    from kafkawire.registry.decode import decode_column
    from kafkawire.registry.naming import topic_name_strategy

    registry = planning_client(formats.registry)
    planned = []
    for c in formats.columns:
        try:
            if c.schema_id is not None:
                what = f"{c.column}SchemaId {c.schema_id}"
                reader = registry.schema_by_id(c.schema_id)
            else:
                subject = c.subject or topic_name_strategy(
                    single_topic(subscription), None, c.column == "key"
                )
                what = f"the latest version of subject {subject!r}" + (
                    "" if c.subject else f" (the default {c.column} subject; set {c.column}Subject)"
                )
                reader = registry.latest_version(subject)
        except RegistryError as exc:
            from kafkawire.registry.errors import SchemaNotFoundError

            missing = isinstance(exc, SchemaNotFoundError)
            raise OptionError(
                f"{c.column}Format={c.format}: {what} "
                f"{'is not in' if missing else 'could not be read from'} the schema registry "
                f"at {registry.url}: {exc}"
            ) from exc
        wanted = {"avro": "AVRO", "protobuf": "PROTOBUF", "json": "JSON"}[c.format]
        if (reader.schema_type or "AVRO") != wanted:
            raise OptionError(
                f"{c.column}Format={c.format}, but {what} is a {reader.schema_type} schema"
            )
        try:  # the decoded type: decode nothing with the reader schema
            empty = decode_column(
                pa.array([], pa.binary()), registry, reader_schema=reader, format=c.format
            )
        except (SchemaError, RegistryError) as exc:
            raise OptionError(f"{c.column}Format={c.format}: {what}: {exc}") from exc
        try:
            arrow_type = spark_arrow_type(empty.values.type)
        except SchemaError as exc:
            raise OptionError(f"{c.column}Format={c.format}: {what}: {exc}") from exc
        planned.append(PlannedColumn(c, reader, arrow_type))
    return PlannedRead(formats.registry, tuple(planned))


# ---- Arrow types to Spark's ---------------------------------------------------------------

_INTERVAL_STRUCT = pa.struct(
    [("months", pa.int32()), ("days", pa.int32()), ("nanoseconds", pa.int64())]
)


def spark_arrow_type(t: pa.DataType) -> pa.DataType:
    """The Arrow type Spark gives the Spark type of ``t`` (pyspark's ``to_arrow_type`` of
    :func:`spark_type`): what a batch must hold. Raises SchemaError for a type Spark has no
    counterpart for (an Arrow union)."""
    if pa.types.is_dictionary(t):
        return spark_arrow_type(t.value_type)
    if pa.types.is_null(t) or pa.types.is_boolean(t):
        return t
    if pa.types.is_signed_integer(t) or pa.types.is_float32(t) or pa.types.is_float64(t):
        return t
    if pa.types.is_float16(t):
        return pa.float32()
    if pa.types.is_unsigned_integer(t):
        return {8: pa.int16(), 16: pa.int32(), 32: pa.int64()}.get(
            t.bit_width, pa.decimal128(20, 0)
        )
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return pa.string()
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return pa.binary()
    if pa.types.is_fixed_size_binary(t) and not pa.types.is_decimal(t):
        return pa.binary()
    if pa.types.is_decimal(t):
        return pa.decimal128(t.precision, t.scale) if t.precision <= 38 else pa.string()
    if pa.types.is_date(t):
        return pa.date32()
    if pa.types.is_timestamp(t):
        return pa.timestamp("us", tz="UTC" if t.tz is not None else None)
    if pa.types.is_time32(t):
        return pa.int32()
    if pa.types.is_time64(t):
        return pa.int64()
    if pa.types.is_duration(t):
        return pa.duration("us")
    if t == pa.month_day_nano_interval():
        return _INTERVAL_STRUCT
    if (
        pa.types.is_list(t)
        or pa.types.is_large_list(t)
        or pa.types.is_fixed_size_list(t)
        or pa.types.is_list_view(t)
        or pa.types.is_large_list_view(t)
    ):
        return pa.list_(pa.field("element", spark_arrow_type(t.value_type)))
    if pa.types.is_map(t):
        return pa.map_(
            pa.field("key", spark_arrow_type(t.key_type), nullable=False),
            pa.field("value", spark_arrow_type(t.item_type)),
        )
    if pa.types.is_struct(t):
        return pa.struct(
            [
                pa.field(t.field(k).name, spark_arrow_type(t.field(k).type))
                for k in range(t.num_fields)
            ]
        )
    raise SchemaError(f"Arrow type {t} has no Spark counterpart")


def spark_type(t: pa.DataType) -> Any:
    """The Spark type of values of a Spark-compatible Arrow type (:func:`spark_arrow_type`)."""
    from pyspark.sql import types as T

    t = spark_arrow_type(t)
    simple = {
        pa.null(): T.NullType(),
        pa.bool_(): T.BooleanType(),
        pa.int8(): T.ByteType(),
        pa.int16(): T.ShortType(),
        pa.int32(): T.IntegerType(),
        pa.int64(): T.LongType(),
        pa.float32(): T.FloatType(),
        pa.float64(): T.DoubleType(),
        pa.string(): T.StringType(),
        pa.binary(): T.BinaryType(),
        pa.date32(): T.DateType(),
        pa.timestamp("us", tz="UTC"): T.TimestampType(),
        pa.timestamp("us"): T.TimestampNTZType(),
        pa.duration("us"): T.DayTimeIntervalType(),
    }
    if t in simple:
        return simple[t]
    if pa.types.is_decimal(t):
        return T.DecimalType(t.precision, t.scale)
    if pa.types.is_list(t):
        return T.ArrayType(spark_type(t.value_type), containsNull=True)
    if pa.types.is_map(t):
        return T.MapType(spark_type(t.key_type), spark_type(t.item_type), valueContainsNull=True)
    if pa.types.is_struct(t):
        return T.StructType(
            [
                T.StructField(t.field(k).name, spark_type(t.field(k).type))
                for k in range(t.num_fields)
            ]
        )
    raise SchemaError(f"Arrow type {t} has no Spark counterpart")  # pragma: no cover


def read_schema(base: Any, planned: PlannedRead | None) -> Any:
    """Spark's Kafka schema ``base`` with the decoded columns' struct types, and the
    keyError / valueError columns of valueErrors=null / keyErrors=null at the end."""
    if planned is None:
        return base
    from pyspark.sql.types import StringType, StructField, StructType

    types = {p.read.column: spark_type(p.arrow_type) for p in planned.columns}
    fields = [StructField(f.name, types[f.name]) if f.name in types else f for f in base.fields]
    for p in sorted(planned.columns, key=lambda p: COLUMNS.index(p.read.column)):
        if p.read.error_column:
            fields.append(StructField(p.read.error_column, StringType()))
    return StructType(fields)


# ---- Arrow arrays to Spark's --------------------------------------------------------------


def to_spark_arrow(column: pa.Array, target: pa.DataType) -> pa.Array:
    """``column`` as the Spark-compatible Arrow type ``target`` (:func:`spark_arrow_type` of
    its type): nested types rebuilt, leaves cast."""
    t = column.type
    if t == target:
        return column
    if pa.types.is_dictionary(t):
        return to_spark_arrow(column.dictionary_decode(), target)
    mask = column.is_null() if column.null_count else None
    if pa.types.is_struct(t):
        children = [
            to_spark_arrow(column.field(k), target.field(k).type) for k in range(t.num_fields)
        ]
        fields = [target.field(k) for k in range(t.num_fields)]
        if not fields:
            return pa.array([{}] * len(column), target, mask=mask)
        return pa.StructArray.from_arrays(children, fields=fields, mask=mask)
    if pa.types.is_map(t):
        offsets, entries = list_parts(column)  # entries: struct<key, value>
        keys = to_spark_arrow(entries.field(0), target.key_type)
        items = to_spark_arrow(entries.field(1), target.item_type)
        return pa.MapArray.from_arrays(offsets, keys, items, type=target, mask=mask)
    if pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t) or pa.types.is_list_view(t):
        return to_spark_arrow(column.cast(pa.list_(t.value_field)), target)
    if pa.types.is_list(t):
        offsets, values = list_parts(column)
        values = to_spark_arrow(values, target.value_type)
        return pa.ListArray.from_arrays(offsets, values, type=target, mask=mask)
    if t == pa.month_day_nano_interval():
        return _interval_struct(column)
    if pa.types.is_time32(t) or pa.types.is_time64(t):
        return column.view(pa.int32() if pa.types.is_time32(t) else pa.int64())
    return column.cast(target, safe=False)


def _interval_struct(column: pa.Array) -> pa.StructArray:
    n = len(column)
    data = column.buffers()[1]
    raw = np.frombuffer(data, dtype=np.dtype([("m", "<i4"), ("d", "<i4"), ("ns", "<i8")]))
    raw = raw[column.offset : column.offset + n]
    return pa.StructArray.from_arrays(
        [pa.array(raw["m"].copy()), pa.array(raw["d"].copy()), pa.array(raw["ns"].copy())],
        fields=list(_INTERVAL_STRUCT),
        mask=column.is_null() if column.null_count else None,
    )


def decode_batch(
    batch: pa.RecordBatch, planned: PlannedRead, include_headers: bool
) -> pa.RecordBatch:
    """A batch of Spark's Kafka columns (headers included) with its registry-framed key and
    value columns decoded; headers dropped unless ``include_headers``. With keyErrors /
    valueErrors raise, the first bad value fails the task, naming its partition and offset."""
    registry = registry_client(planned.registry)
    names = batch.schema.names
    columns = dict(zip(names, batch.columns, strict=True))
    headers = columns.get("headers")
    extra: dict[str, pa.Array] = {}
    for p in planned.columns:
        c = p.read
        decoded = _decode(columns[c.column], registry, headers, p)
        if decoded.error_count and c.on_error == "raise":
            row = int(np.flatnonzero(decoded.errors.is_valid().to_numpy(zero_copy_only=False))[0])
            where = record_name(columns, row)
            raise PayloadError(
                f"{where}: the {c.column} does not decode as {c.format} with the reader schema "
                f"(id {p.reader.schema_id}): {decoded.errors[row].as_py()}; set "
                f"{c.column}Errors=null to read bad {c.column}s as nulls (the reason in "
                f"column {c.column}Error)",
                field=c.column,
            )
        columns[c.column] = to_spark_arrow(decoded.values, p.arrow_type)
        if c.error_column:
            extra[c.error_column] = decoded.errors
    if not include_headers:
        columns.pop("headers", None)
    for name in ("keyError", "valueError"):
        if name in extra:
            columns[name] = extra[name]
    return pa.RecordBatch.from_arrays(list(columns.values()), names=list(columns))


def _decode(column: pa.Array, registry: SchemaRegistryClient, headers, p: PlannedColumn):
    """decode_column with bad values (and values naming a schema the registry does not have)
    null, each with its reason."""
    from kafkawire.registry.decode import decode_column

    return decode_column(
        column,
        registry,
        headers=headers,
        key=p.read.column == "key",
        reader_schema=p.reader,
        format=p.read.format,
        on_error="null",
    )


# ---- writing ------------------------------------------------------------------------------


def plan_write(
    formats: RegistryWrite, topic: str | None, input_types: Mapping[str, Any]
) -> PlannedWrite:
    """The writer schema (with its id) of each encoded column, on the driver: the id given;
    or the subject's latest version (use.latest.version); or the schema given (valueSchema)
    or derived from the column's type, registered (auto.register.schemas) or looked up under
    its subject. ``input_types``: the input columns' Spark types by lowercase name."""
    from pyspark.sql.pandas.types import to_arrow_type

    from kafkawire.registry.client import Schema
    from kafkawire.registry.encode import (
        avro_schema_for,
        json_schema_for,
        json_validator,
        proto_message,
        proto_schema_for,
        writer_schema,
    )
    from kafkawire.registry.naming import record_full_name, subject_name

    registry = planning_client(formats.registry)
    schemas = []
    for c in formats.columns:
        spark = input_types.get(c.column)
        if spark is None:
            raise OptionError(f"{c.column}Format={c.format} but the data has no {c.column} column")
        arrow = to_arrow_type(spark, timezone="UTC")
        if not pa.types.is_struct(arrow):
            raise OptionError(
                f"{c.column}Format={c.format}: column {c.column} must be a struct, not "
                f"{spark.simpleString()}"
            )
        kind = {"avro": "AVRO", "json": "JSON", "protobuf": "PROTOBUF"}[c.format]
        try:
            if c.schema_id is not None:
                schema = registry.schema_by_id(c.schema_id)
            else:
                name = formats.record_name + ("Key" if c.column == "key" else "")
                if c.schema is not None:
                    candidate = Schema(c.schema, kind)
                elif c.format == "avro":
                    derived = avro_schema_for(arrow, name, formats.record_namespace)
                    candidate = Schema(json.dumps(derived))
                elif c.format == "protobuf":
                    derived = proto_schema_for(arrow, name, formats.record_namespace)
                    candidate = Schema(derived, "PROTOBUF")
                else:
                    namespace = formats.record_namespace
                    title = f"{namespace}.{name}" if namespace else name
                    candidate = Schema(json.dumps(json_schema_for(arrow, title)), "JSON")
                subject = c.subject
                if subject is None:
                    if c.format == "protobuf":  # the first message's full name
                        full = proto_message(candidate, registry).DESCRIPTOR.full_name
                    elif c.format == "avro":
                        full = record_full_name(json.loads(candidate.schema_str))
                    else:  # Confluent's record name of a JSON Schema: its title
                        parsed = json.loads(candidate.schema_str)
                        full = parsed.get("title") if isinstance(parsed, dict) else None
                    try:
                        subject = subject_name(formats.strategy, topic, full, key=c.column == "key")
                    except ValueError as exc:
                        raise OptionError(
                            f"{c.column}Format={c.format}: {exc} (set the topic option, or "
                            f"give {c.column}Subject or {c.column}SchemaId)"
                        ) from None
                schema = _writer(registry, formats, subject, candidate, c)
            if (schema.schema_type or "AVRO") != kind:
                raise OptionError(
                    f"{c.column}Format={c.format}, but schema {schema.schema_id} is "
                    f"{schema.schema_type}"
                )
            # parsed: a bad schema fails here, not in every task
            if kind == "AVRO":
                writer_schema(schema, registry)
            elif kind == "JSON":
                json_validator(schema)
            else:
                message = proto_message(schema, registry)
                extra = sorted(set(arrow.names) - set(message.DESCRIPTOR.fields_by_name))
                if extra:
                    raise OptionError(
                        f"column {c.column} does not fit the Protobuf schema "
                        f"{schema.schema_id}: fields {extra} are not in message "
                        f"{message.DESCRIPTOR.full_name}"
                    )
        except SchemaError as exc:
            raise OptionError(f"{c.column}Format={c.format}: {exc}") from exc
        except RegistryError as exc:
            raise OptionError(
                f"{c.column}Format={c.format}: the schema registry at {registry.url}: {exc}"
            ) from exc
        _check_fields(arrow, schema, c.column)
        schemas.append((c.column, schema))
    return PlannedWrite(formats.registry, tuple(schemas))


def _writer(registry, formats: RegistryWrite, subject: str, candidate, c: ColumnWrite):
    from kafkawire.registry.errors import SchemaNotFoundError

    if formats.use_latest:
        return registry.latest_version(subject)
    if formats.auto_register:
        return registry.register(subject, candidate)
    try:
        return registry.lookup(subject, candidate)
    except SchemaNotFoundError:
        raise OptionError(
            f"{c.column}Format={c.format}: auto.register.schemas=false and the "
            f"{'schema given' if c.schema else 'schema derived from the ' + c.column + ' column'} "
            f"is not registered under subject {subject!r}: register it first, or set "
            "auto.register.schemas=true"
        ) from None


def _check_fields(arrow: pa.StructType, schema: Schema, column: str) -> None:
    """The struct's fields against a record schema's: extra fields, and schema fields
    without a default the struct lacks, refused on the driver."""
    if schema.schema_type == "PROTOBUF":
        return  # checked by plan_write (every Protobuf field is optional)
    parsed = json.loads(schema.schema_str)
    names = {arrow.field(k).name for k in range(arrow.num_fields)}
    if (schema.schema_type or "AVRO") == "JSON":
        if not isinstance(parsed, dict) or not isinstance(parsed.get("properties"), dict):
            return
        closed = parsed.get("additionalProperties") is False
        extra = sorted(names - set(parsed["properties"])) if closed else []
        missing = sorted(set(parsed.get("required") or ()) - names)
        what = "JSON Schema"
    else:
        if not isinstance(parsed, dict) or parsed.get("type") != "record":
            return
        fields = {f["name"]: f for f in parsed.get("fields", [])}
        extra = sorted(names - set(fields))
        missing = sorted(n for n, f in fields.items() if n not in names and "default" not in f)
        what = "Avro schema"
    problems = []
    if extra:
        problems.append(f"fields {extra} are not in the schema")
    if missing:
        problems.append(f"fields {missing} (without a default) are not in the column")
    if problems:
        raise OptionError(
            f"column {column} does not fit the {what} {schema.schema_id}: " + "; ".join(problems)
        )


_PARSED: dict[tuple[RegistryConfig, Schema], Any] = {}


def encode_batch(batch: pa.RecordBatch, planned: PlannedWrite) -> pa.RecordBatch:
    """The batch with its struct key / value columns encoded (registry framing)."""
    from kafkawire.registry.encode import (
        encode_avro,
        encode_json,
        encode_protobuf,
        json_validator,
        proto_message,
        writer_schema,
    )

    registry = registry_client(planned.registry)
    for column, schema in planned.schemas:
        index = next((i for i, n in enumerate(batch.schema.names) if n.lower() == column), None)
        if index is None:
            continue
        key = (planned.registry, schema)
        with _CLIENTS_LOCK:
            parsed = _PARSED.get(key)
        kind = schema.schema_type or "AVRO"
        if parsed is None:
            if kind == "JSON":
                parsed = json_validator(schema)
            elif kind == "PROTOBUF":
                parsed = proto_message(schema, registry)
            else:
                parsed = writer_schema(schema, registry)
            with _CLIENTS_LOCK:
                _PARSED[key] = parsed
        values = batch.column(index)
        if kind == "JSON":
            encoded = encode_json(values, schema, validator=parsed)
        elif kind == "PROTOBUF":
            encoded = encode_protobuf(values, schema, registry=registry, message=parsed)
        else:
            encoded = encode_avro(values, schema, registry=registry, parsed=parsed)
        batch = batch.set_column(index, pa.field(column, pa.binary()), encoded)
    return batch
