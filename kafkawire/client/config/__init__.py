"""The client's settings: ``client`` is ``ClientConfig`` and the table of the properties
every client shares (librdkafka's and Java's names, with the ignored and refused ones and
why); ``values`` converts their values, ``reading`` collects a face's settings from
properties and keywords (and lets ``consumer/config.py`` and ``producer/config.py`` register
theirs), ``jaas`` reads ``sasl.jaas.config``, ``files`` Java properties files, and
``suggestions`` finds the property a misspelt name meant."""
