"""The compiled push search, an optional extension: a build that fails (no C compiler) installs
the Python alone, which gives the same results (sokoasp/sokoban/kernel.py)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("sokoasp.sokoban._search_kernel", ["sokoasp/sokoban/search_kernel.c"],
                             extra_compile_args=["-O2"], optional=True)])
