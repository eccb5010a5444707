"""Share groups (KIP-932, queues): ``session`` holds the flows (ShareGroupHeartbeat
membership, one share session per leader with its acquired records), ``core`` the share
consumer's sans-IO state machine over them, ``faces`` its blocking and asyncio faces
(``ShareConsumer``, ``AsyncShareConsumer``)."""
