"""Cross-checks against kafka-python's protocol classes (generated from Kafka's schemas too).

kafkawire's bytes decode in kafka-python, which re-encodes them to the same bytes.
"""

import importlib
import pkgutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kw_protocol_helpers import PAIRS, instances, pair_id

from kafkawire.protocol import encode

kafka_protocol = pytest.importorskip("kafka.protocol")
api_message = pytest.importorskip("kafka.protocol.api_message")


def kafka_python_classes() -> dict[str, type]:
    for module in pkgutil.walk_packages(kafka_protocol.__path__, "kafka.protocol."):
        importlib.import_module(module.name)
    found, todo = {}, [api_message.ApiMessage]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if getattr(sub, "_class_version", None) is None:  # not a per-version wrapper
                found[sub.__name__] = sub
    return found


CLASSES = kafka_python_classes()
KP_PAIRS = [
    (cls, v)
    for cls, v in PAIRS
    if cls.__name__ in CLASSES and v <= CLASSES[cls.__name__].max_version
]


def test_kafka_python_covers_many_pairs():
    assert len(KP_PAIRS) > 400


@pytest.mark.parametrize("pair", KP_PAIRS, ids=pair_id)
@settings(
    max_examples=3,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_kafka_python_agrees(pair, data):
    cls, version = pair
    msg = data.draw(instances(cls, version, small=True))
    if cls.__name__ == "ApiVersionsResponse":
        msg.error_code = 0  # kafka-python reads the body as v0 when there is an error
    ours = encode(msg, version=version)
    theirs = CLASSES[cls.__name__].decode(ours, version=version)
    theirs._header = None  # decode() leaves it unset, and encode() reads it
    assert theirs.encode(version=version) == ours
