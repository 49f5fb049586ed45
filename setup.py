"""The optional compiled kernel and walker (see README, "Speed"); everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("exact_odds.engine._kernel", ["exact_odds/engine/_kernel.c"], optional=True, extra_compile_args=["-O3"]),
                   Extension("exact_odds.engine._walk", ["exact_odds/engine/_walk.c"], optional=True, extra_compile_args=["-O3"])])
