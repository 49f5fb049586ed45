"""The optional compiled kernel (see README, "Speed"); everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("exact_odds.engine._kernel", ["exact_odds/engine/_kernel.c"], optional=True, extra_compile_args=["-O3"])])
