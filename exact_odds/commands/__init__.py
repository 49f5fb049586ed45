"""Commands: one request per command, checked once, run, and turned into a document."""
