"""The optional compiled kernel (see README, "Speed"); everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("exact_odds._kernel", ["exact_odds/_kernel.c"], optional=True, extra_compile_args=["-O3"])])
