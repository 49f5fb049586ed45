"""A live shoe session over HTTP: the SQLite store (:mod:`.sessions`) and the FastAPI app (:mod:`.app`)."""
