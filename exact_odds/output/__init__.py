"""Output: the renderer alone (blocks to text, markdown, csv, json, latex, html), files and plots."""
