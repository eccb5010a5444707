"""``kafkawire.messages.<Name>``: the class of every request, response, header and data schema."""

from kafkawire.protocol._generated_messages import *  # noqa: F403
from kafkawire.protocol._generated_messages import __all__  # noqa: F401
