from __future__ import annotations

import itertools
import ssl

import pytest

from tests.registry.registry_server import RegistryServer, start_registry

_names = itertools.count(1)


@pytest.fixture(scope="session")
def registry_server() -> RegistryServer:
    """The in-memory Confluent-compatible registry, one for the session (its schemas stay
    between tests, so tests use fresh subjects: see ``subject``)."""
    server = start_registry()
    yield server
    server.stop()


@pytest.fixture
def registry(registry_server: RegistryServer) -> RegistryServer:
    """The session's registry, answering and open (no credentials required, no injected
    failures, an empty request log) at the start of the test and again after it."""
    registry_server.reset()
    yield registry_server
    registry_server.reset()


@pytest.fixture(scope="session")
def registry_server_tls(tmp_path_factory) -> RegistryServer:
    """The registry behind TLS, with a trustme certificate for 127.0.0.1; ``.ca_file`` is
    the CA's PEM file."""
    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1", "localhost").configure_cert(context)
    ca_file = tmp_path_factory.mktemp("registry-tls") / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    server = start_registry(tls=context)
    server.ca_file = str(ca_file)
    yield server
    server.stop()


@pytest.fixture
def subject(request) -> str:
    """A subject name no other test uses."""
    return f"{request.node.name.replace('[', '-').rstrip(']')}-{next(_names)}-value"
