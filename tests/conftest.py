import os

from hypothesis import settings

# CI draws the same examples every run (derandomized); developers' runs explore new ones.
settings.register_profile("ci", max_examples=30, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("default", max_examples=30, deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
