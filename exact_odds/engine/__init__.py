"""Exact counting: the enumerator, the compiled tables and kernel, distributions, analysis."""
