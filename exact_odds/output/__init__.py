"""Output: tables, renderers, the math report, exports, files and plots."""
