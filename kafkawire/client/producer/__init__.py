"""The producer: ``core`` is its sans-IO state machine (the topics' batches, the buffer, the
sender flow and the Produce answers), with its collaborators ``jobs`` (the flows the sender
steps between its calls), ``metadata`` (the topics' partitions and leaders), ``held`` (records
sent before their topic's partitions were known) and ``transaction_state``; ``_accumulate``
is the compiled batches a send appends to. ``faces`` holds its blocking and asyncio faces
(``Producer``, ``AsyncProducer``), over ``columns`` (values and columns as the batches take
them) and ``reports`` (delivery reports, stats_cb, error_cb). ``config`` is its settings,
``transactions`` the transactional requests, ``partitioner`` the key hashing, and
``requests`` the request-level flows the ``Client`` offers: Produce to one partition,
InitProducerId."""
