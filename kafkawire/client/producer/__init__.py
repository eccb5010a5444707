"""The producer: ``core`` is its sans-IO state machine (the sender flow, idempotence,
retries, held records), ``_accumulate`` the compiled batches a send appends to, ``faces`` its
blocking and asyncio faces (``Producer``, ``AsyncProducer``), ``config`` its settings,
``transactions`` the transactional requests, ``partitioner`` the key hashing. ``requests``
are the request-level flows the ``Client`` offers: Produce to one partition, InitProducerId."""
