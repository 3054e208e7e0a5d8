"""planlint's PEP 517 build backend (pyproject.toml: backend-path = ["tools/python"]).

scikit-build-core when the build environment has it: always with build isolation (pip installs
it and pybind11 from PyPI, as pyproject.toml's build-system.requires says), and without isolation
in any environment that has both. Otherwise, the offline Debian route (`/usr/bin/python3 -m pip
install --no-build-isolation .`, Debian 12 has no scikit-build-core): setuptools with setup.py,
which builds the same CMake target `_core` against Debian's pybind11-dev. Both build one wheel
with the same files: planlint/*.py and planlint/_core*.so.
"""
try:
    from scikit_build_core import build as _backend
except ImportError:  # no scikit-build-core: Debian's setuptools and setup.py
    from setuptools import build_meta as _backend

build_wheel = _backend.build_wheel
build_sdist = _backend.build_sdist
get_requires_for_build_wheel = _backend.get_requires_for_build_wheel
get_requires_for_build_sdist = _backend.get_requires_for_build_sdist
if hasattr(_backend, "prepare_metadata_for_build_wheel"):
    prepare_metadata_for_build_wheel = _backend.prepare_metadata_for_build_wheel
if hasattr(_backend, "build_editable"):
    build_editable = _backend.build_editable
    get_requires_for_build_editable = _backend.get_requires_for_build_editable
    if hasattr(_backend, "prepare_metadata_for_build_editable"):
        prepare_metadata_for_build_editable = _backend.prepare_metadata_for_build_editable
