"""Builds planlint's C++ engine (the CMake target `_core`, pybind11) into the Python package.

Needs the Debian build dependencies of planlint (tools/setup-deps.sh) and pybind11-dev; works
offline: `/usr/bin/python3 -m pip install --no-build-isolation .`.
"""
import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        out_dir = os.path.dirname(os.path.abspath(self.get_ext_fullpath(ext.name)))
        build_dir = os.environ.get("PLANLINT_PY_BUILD_DIR", os.path.join(ROOT, "build-python"))
        cfg = ["cmake", "-S", ROOT, "-B", build_dir, f"-DPYTHON_EXECUTABLE={sys.executable}", "-DPLANLINT_PYTHON=ON"]
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            # A new build folder: Release. An existing one (PLANLINT_PY_BUILD_DIR=build) keeps its
            # settings, so its objects are reused.
            cfg.append("-DCMAKE_BUILD_TYPE=Release")
            if subprocess.call(["ninja", "--version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
                cfg += ["-G", "Ninja"]
        subprocess.check_call(cfg)
        jobs = os.environ.get("PLANLINT_BUILD_JOBS", str(os.cpu_count() or 1))
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "_core", "-j", jobs])
        built = os.path.join(build_dir, "python", "planlint")
        os.makedirs(out_dir, exist_ok=True)
        for f in os.listdir(built):
            if f.startswith("_core") and f.endswith(".so"):
                self.copy_file(os.path.join(built, f), os.path.join(out_dir, os.path.basename(self.get_ext_fullpath(ext.name))))
                return
        raise RuntimeError("the CMake build made no _core module in " + built)


setup(
    # setuptools' own work folders stay out of the CMake build folder `build/`.
    options={"build": {"build_base": os.path.join("build-python", "setuptools")},
             "egg_info": {"egg_base": os.path.join("build-python")}},
    packages=["planlint"],
    package_dir={"": "python"},
    ext_modules=[CMakeExtension("planlint._core")],
    cmdclass={"build_ext": CMakeBuild},
)
