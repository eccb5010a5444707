"""Share groups (KIP-932, queues): ``membership`` holds the ShareGroupHeartbeat membership
(``ShareGroupMember``; ``TopicIdPartition``), ``session`` the share sessions, one per leader,
with their acquired records (ShareFetch, ShareAcknowledge), ``core`` the share consumer's
sans-IO state machine over them, ``faces`` its blocking and asyncio faces (``ShareConsumer``,
``AsyncShareConsumer``)."""
