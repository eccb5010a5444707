"""``kafkawire topics --command-config``: a Java client.properties file (SASL_SSL, SCRAM in
sasl.jaas.config, a PEM truststore) read as Kafka's tools read it, against the SASL gateway."""

from __future__ import annotations

import json
import uuid

import pytest
import trustme

from kafkawire import cli
from kafkawire.client import Client, TopicPartition
from kafkawire.client.config.files import read_properties
from tests.support.sasl_bed import sasl_bed
from tests.support.tls import server_context

pytestmark = pytest.mark.interop


def test_topics_through_sasl_ssl_with_a_properties_file(tmp_path, capsys):
    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    properties = tmp_path / "client.properties"
    properties.write_text(
        "# as for kafka-topics.sh\n"
        "security.protocol=SASL_SSL\n"
        "sasl.mechanism: SCRAM-SHA-256\n"
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n"
        '    username="alice" password="alice-secret";\n'
        f"ssl.truststore.location={tmp_path / 'ca.pem'}\n"
    )
    with sasl_bed(tls_context=server_context(ca, "127.0.0.1")) as gateway:
        topic = f"cli-{uuid.uuid4().hex[:8]}"
        with Client(gateway.address, config=read_properties(str(properties))) as client:
            client.create_topics({topic: 2})
            client.produce_columns(TopicPartition(topic, 1), [b"a", b"b", b"c"])
        argv = ["topics", "--bootstrap-server", gateway.address, "--topic", topic]
        assert cli.main([*argv, "--command-config", str(properties), "--json"]) == 0
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        offsets = [(r["partition"], r["earliest"], r["latest"]) for r in rows]
        assert offsets == [(0, 0, 0), (1, 0, 3)]

        # without the file: a clear one-line error, not a hang
        assert cli.main([*argv]) == 1
        assert "TLS" in capsys.readouterr().err
    bad = tmp_path / "bad.properties"
    bad.write_text("sasl.pasword=x\n")
    assert cli.main([*argv, "--command-config", str(bad)]) == 1
    assert "did you mean 'sasl.password'" in capsys.readouterr().err


def test_properties_files_read_as_java_reads_them(tmp_path):
    path = tmp_path / "p.properties"
    path.write_text(
        "! comment\n  # comment\nkey1 = a=b\nkey2:value\\\n    continued\nkey3 spaced value\n"
        "escaped\\ key=\\u00e9\\t\nempty=\n"
    )
    assert read_properties(str(path)) == {
        "key1": "a=b",
        "key2": "valuecontinued",
        "key3": "spaced value",
        "escaped key": "é\t",
        "empty": "",
    }


def test_a_properties_file_that_is_not_text_is_a_config_error(tmp_path):
    from kafkawire.client.errors import ConfigError

    path = tmp_path / "p.properties"
    path.write_bytes(b"sasl.password=\xff\xfe\n")
    with pytest.raises(ConfigError, match="not UTF-8 text"):
        read_properties(str(path))


def test_a_topic_that_is_not_there_is_an_error(broker, capsys):
    topic = f"cli-{uuid.uuid4().hex[:8]}"
    with Client(broker.bootstrap) as client:
        client.create_topics({topic: 1})
        client.produce_columns(TopicPartition(topic, 0), [b"only"])
    argv = ["topics", "--bootstrap-server", broker.bootstrap, "--topic", topic]
    assert cli.main([*argv, "--topic", "nope-not-here"]) == 1
    captured = capsys.readouterr()
    assert captured.out == f"{topic} [0] leader {captured.out.split()[3]} offsets 0..1 (1 record)\n"
    assert captured.err == (
        "kafkawire: topic 'nope-not-here': UNKNOWN_TOPIC_OR_PARTITION (error 3)\n"
    )
