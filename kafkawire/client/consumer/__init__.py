"""The consumer: ``core`` is its sans-IO state machine (subscription and assignment,
positions, poll, the group's work between polls), with two collaborators: ``pipeline`` (the
fetches kept in flight, their answers placed, buffers drained into records) and ``commits``
(which offsets a commit takes, auto-commit, asynchronous commits); ``batches`` holds what a
poll returns (``PartitionRecords``, ``ConsumerBatch``), ``faces`` the blocking and asyncio
faces (``Consumer``, ``AsyncConsumer``), ``config`` its settings by librdkafka's and Java's
names. The flows it shares with the request-level ``Client``: ``fetcher`` (Fetch requests and
their answers), ``fetch_session`` (KIP-227 incremental fetch sessions) and ``offsets``
(ListOffsets, the range readers)."""
