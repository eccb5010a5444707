"""Producer.send_batch with fixed-width numpy columns (``S<n>`` values and keys) needs no
pyarrow: a program that cannot import pyarrow (or pandas) sends 1,000 keyed rows through it to
Tansu, and they are read back with their keys, values, and the partitions the keys hash to.
(numpy arrays have a ``take`` method too, which sent them down the Arrow path.)"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import numpy as np

from kafkawire.client import Client, TopicPartition
from kafkawire.client.producer.partitioner import key_partitions

PROGRAM = textwrap.dedent(
    """
    import sys
    sys.modules["pyarrow"] = None  # "import pyarrow" raises ImportError from here on
    sys.modules["pandas"] = None
    import numpy as np
    import kafkawire

    bootstrap, topic = sys.argv[1], sys.argv[2]
    values = np.array([b"value-%04d" % i for i in range(1000)], dtype="S100")
    keys = np.array([b"key-%02d" % (i % 37) for i in range(1000)], dtype="S16")
    with kafkawire.Producer(bootstrap) as producer:
        meta = producer.send_batch(topic, values, keys=keys).result(30)
    assert (meta.offsets >= 0).all()
    print(",".join(map(str, meta.partitions.tolist())))
    """
)


def test_send_batch_of_fixed_width_numpy_columns_without_pyarrow(broker, tmp_path):
    topic = f"numpy-batch-{uuid.uuid4().hex[:8]}"
    with Client(broker.bootstrap) as client:
        client.create_topics({topic: 4})
    script = tmp_path / "send.py"
    script.write_text(PROGRAM)
    done = subprocess.run(
        [sys.executable, str(script), broker.bootstrap, topic],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 0, done.stderr[-3000:]
    keys = np.array([b"key-%02d" % (i % 37) for i in range(1000)], dtype="S16")
    expected = key_partitions(keys, 4)
    assert [int(p) for p in done.stdout.strip().split(",")] == expected.tolist()
    with Client(broker.bootstrap) as client:
        read = {}
        for p in range(4):
            for chunk in client.read_range(TopicPartition(topic, p), 0, None):
                table = chunk.to_arrow()
                for k, v in zip(table["key"].to_pylist(), table["value"].to_pylist(), strict=True):
                    read[v] = (k, p)
    assert read == {
        b"value-%04d" % i: (b"key-%02d" % (i % 37), int(expected[i])) for i in range(1000)
    }
