"""Fixtures the client tests share: the face under test, and the SASL bed's certificate
authority, token issuer and SASL_SSL gateway (one of each per module)."""

from __future__ import annotations

import pytest

from tests.support.faces import FACES


@pytest.fixture(params=FACES)
def face(request) -> str:
    """ "sync" or "asyncio": tests taking it run through both faces (tests/support/faces.py)."""
    return request.param


@pytest.fixture(scope="module")
def ca():
    trustme = pytest.importorskip("trustme")
    return trustme.CA()


@pytest.fixture(scope="module")
def issuer():
    from tests.support.sasl_bed import OAuthIssuer

    issuer = OAuthIssuer().start()
    yield issuer
    issuer.stop()


@pytest.fixture(scope="module")
def tls_bed(ca, issuer):
    """A Tansu behind the SASL gateway, with TLS (SASL_SSL), every mechanism enabled."""
    from tests.support.sasl_bed import sasl_bed
    from tests.support.tls import server_context

    context = server_context(ca, "127.0.0.1", "localhost")
    with sasl_bed(tls_context=context, issuer=issuer) as gateway:
        yield gateway
