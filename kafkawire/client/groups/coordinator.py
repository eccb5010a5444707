"""FindCoordinator: which broker coordinates a consumer group (or a transactional id)."""

from __future__ import annotations

from kafkawire.protocol import messages as m
from kafkawire.protocol.error_codes import ErrorCode, raise_for_code

from ..core import ClientCore
from ..flow import ANY_BROKER, Flow

GROUP = 0  # FindCoordinator's key types
TRANSACTION = 1


def find_coordinator(core: ClientCore, key: str, key_type: int = GROUP) -> Flow[int]:
    """The node id of ``key``'s coordinator, whose address the core then knows. Retried
    (with a metadata refresh) while the coordinator is loading or unavailable."""

    def attempt():
        request = m.FindCoordinatorRequest(key=key, key_type=key_type, coordinator_keys=[key])
        response = yield core.call(ANY_BROKER, request)
        if response.coordinators:  # v4+: one answer per key
            (answer,) = [c for c in response.coordinators if c.key == key] or [None]
            if answer is None:
                raise_for_code(
                    ErrorCode.COORDINATOR_NOT_AVAILABLE, f"FindCoordinator answer lacks {key!r}"
                )
        else:
            answer = response
        raise_for_code(answer.error_code, f"coordinator of {key!r}")
        core.brokers.setdefault(answer.node_id, (answer.host, answer.port))
        return answer.node_id

    return (yield from core.retrying(attempt, "FindCoordinator"))
