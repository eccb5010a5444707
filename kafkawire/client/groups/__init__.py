"""Consumer groups: ``classic`` is a member of the classic protocol (JoinGroup, SyncGroup,
Heartbeat, with the client-side ``assignors``), ``consumer_protocol`` one of KIP-848's
(ConsumerGroupHeartbeat, the broker assigns); both find their broker with ``coordinator``.
``heartbeats`` keeps a member in beside the polls of a face; ``admin`` lists, describes and
deletes groups and their offsets."""
