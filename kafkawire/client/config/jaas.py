"""Java's ``sasl.jaas.config``: a JAAS login module entry read into the client settings its
options mean (PLAIN and SCRAM credentials, OAUTHBEARER's client credentials and extensions);
the login modules that only load in a JVM are refused with what to do instead."""

from __future__ import annotations

import re
from typing import Any

from .suggestions import _suggest
from .values import _SECRET_FIELDS, Secret, _extensions

# JAAS login modules (Java's sasl.jaas.config) and the settings their options become
_JAAS_MODULES = {
    "org.apache.kafka.common.security.plain.PlainLoginModule": "PLAIN",
    "org.apache.kafka.common.security.scram.ScramLoginModule": "SCRAM",
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule": "OAUTHBEARER",
}
_JAAS_OPTIONS = {
    "PLAIN": {"username": "sasl_username", "password": "sasl_password"},
    "SCRAM": {"username": "sasl_username", "password": "sasl_password"},
    "OAUTHBEARER": {
        "clientId": "sasl_oauthbearer_client_id",
        "clientSecret": "sasl_oauthbearer_client_secret",
        "scope": "sasl_oauthbearer_scope",
    },
}
_JAAS_ENTRY = re.compile(
    r"\s*([\w.$]+)\s+(required|requisite|sufficient|optional)\b(.*?);\s*$", re.S
)
_JAAS_OPTION = re.compile(r'\s*([\w.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))')


def jaas_settings(text: str) -> dict[str, Any]:
    """The client settings of a ``sasl.jaas.config`` entry: PlainLoginModule and
    ScramLoginModule (username, password), OAuthBearerLoginModule (clientId, clientSecret,
    scope, extension_<name>). Error messages never quote option values (they are secrets)."""
    entry = _JAAS_ENTRY.fullmatch(text)
    if entry is None:
        raise ValueError('is not `<LoginModule class> required <name>="<value>" ... ;`')
    module, _, options = entry.groups()
    kind = _JAAS_MODULES.get(module)
    if kind is None:
        hint = ""
        if "iam" in module.lower():
            hint = (
                ": for MSK IAM pass oauth_cb=, a callable returning a token from "
                "aws-msk-iam-sasl-signer-python, with sasl.mechanism OAUTHBEARER"
            )
        raise ValueError(f"login module {module} cannot be used outside the JVM{hint}")
    settings: dict[str, Any] = {}
    extensions: dict[str, str] = {}
    position = 0
    while position < len(options.rstrip()):
        option = _JAAS_OPTION.match(options, position)
        if option is None:
            raise ValueError(f"cannot read the options of {module} from character {position}")
        name, quoted, bare = option.groups()
        value = bare if quoted is None else re.sub(r"\\(.)", r"\1", quoted)
        position = option.end()
        known = _JAAS_OPTIONS[kind]
        if kind == "OAUTHBEARER" and name.startswith("extension_"):
            extensions[name.removeprefix("extension_")] = value
        elif name in known:
            field_name = known[name]
            settings[field_name] = Secret(value) if field_name in _SECRET_FIELDS else value
        else:
            raise ValueError(f"{module} takes no option {name!r}{_suggest(name, known)}")
    if extensions:
        settings["sasl_oauthbearer_extensions"] = _extensions(extensions)
    if kind != "SCRAM":  # SCRAM's module serves both hashes: sasl.mechanism says which
        settings["sasl_mechanism"] = kind
    return settings
