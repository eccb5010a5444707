"""``python -m kafkawire``: the ``kafkawire`` command (see kafkawire.cli)."""

from kafkawire.cli import main

raise SystemExit(main())
