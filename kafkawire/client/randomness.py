"""The client's own random numbers: partition choices, reconnect jitter, re-authentication
points. A generator of its own rather than the ``random`` module's shared one: an application
that seeds ``random`` gets the same stream whatever kafkawire's threads drew meanwhile."""

from __future__ import annotations

import random

RANDOM = random.Random()
