"""Subject name strategies: the registry subject a schema is registered under, as Confluent's
serializers name it (``subject.name.strategy``).

- ``TopicNameStrategy`` (the default): ``<topic>-value`` / ``<topic>-key``;
- ``RecordNameStrategy``: the record's full name (``namespace.Name``), whatever the topic;
- ``TopicRecordNameStrategy``: ``<topic>-<record full name>``.

Confluent's configuration spells them as Java class names
(``io.confluent.kafka.serializers.subject.TopicNameStrategy``); those are accepted too.
"""

from __future__ import annotations

from collections.abc import Callable

TOPIC_NAME = "TopicNameStrategy"
RECORD_NAME = "RecordNameStrategy"
TOPIC_RECORD_NAME = "TopicRecordNameStrategy"
STRATEGIES = (TOPIC_NAME, RECORD_NAME, TOPIC_RECORD_NAME)
_JAVA_PACKAGE = "io.confluent.kafka.serializers.subject."


def topic_name_strategy(topic: str | None, record_name: str | None, key: bool = False) -> str:
    """``<topic>-key`` or ``<topic>-value``."""
    if not topic:
        raise ValueError("TopicNameStrategy needs the topic")
    return f"{topic}-{'key' if key else 'value'}"


def record_name_strategy(topic: str | None, record_name: str | None, key: bool = False) -> str:
    """The record's full name (the topic and key/value side do not matter)."""
    if not record_name:
        raise ValueError("RecordNameStrategy needs a named (record) schema")
    return record_name


def topic_record_name_strategy(
    topic: str | None, record_name: str | None, key: bool = False
) -> str:
    """``<topic>-<record full name>``."""
    if not topic:
        raise ValueError("TopicRecordNameStrategy needs the topic")
    if not record_name:
        raise ValueError("TopicRecordNameStrategy needs a named (record) schema")
    return f"{topic}-{record_name}"


_BY_NAME: dict[str, Callable[[str | None, str | None, bool], str]] = {
    TOPIC_NAME: topic_name_strategy,
    RECORD_NAME: record_name_strategy,
    TOPIC_RECORD_NAME: topic_record_name_strategy,
}


def strategy_name(name: str) -> str:
    """The strategy's short name, from a short or Java class name (case-insensitive);
    ValueError for another."""
    short = name.strip().removeprefix(_JAVA_PACKAGE)
    for known in STRATEGIES:
        if short.lower() == known.lower():
            return known
    raise ValueError(f"subject name strategy must be one of {', '.join(STRATEGIES)}, not {name!r}")


def strategy(name: str) -> Callable[[str | None, str | None, bool], str]:
    """The strategy function ``(topic, record full name, key) -> subject``."""
    return _BY_NAME[strategy_name(name)]


def subject_name(
    name: str, topic: str | None, record_name: str | None, *, key: bool = False
) -> str:
    """The subject strategy ``name`` gives for this topic and record full name."""
    return strategy(name)(topic, record_name, key)


def record_full_name(schema: object) -> str | None:
    """The full name of a parsed Avro schema's top-level named type (a dict with "name"),
    or None (a primitive, array, map or union)."""
    if not isinstance(schema, dict) or "name" not in schema:
        return None
    name = str(schema["name"])
    namespace = schema.get("namespace")
    if "." in name or not namespace:
        return name
    return f"{namespace}.{name}"
