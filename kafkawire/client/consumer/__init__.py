"""The consumer: ``core`` is its sans-IO state machine (positions, pipelined fetches, the
group's work between polls), ``faces`` its blocking and asyncio faces (``Consumer``,
``AsyncConsumer``), ``config`` its settings by librdkafka's and Java's names. The flows it
shares with the request-level ``Client``: ``fetcher`` (Fetch requests and their answers),
``fetch_session`` (KIP-227 incremental fetch sessions) and ``offsets`` (ListOffsets, the
range readers)."""
