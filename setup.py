# The compiled part of the Python module, built by CMake (the project's own build, only the
# target _scaleopt), for `pip install .` (pyproject.toml; docs/python.md).
#
# By default a fresh CMake build in setuptools' temporary folder: the whole library again,
# several minutes on 2 cores. With SCALEOPT_CMAKE_BUILD_DIR=<an existing build tree> (configured
# with this Python, e.g. `make python`'s build/) the target is brought up to date there instead
# (nothing to do when it is) and copied, so installing a checkout that is already built takes
# seconds.
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        source = Path(__file__).resolve().parent
        existing = os.environ.get("SCALEOPT_CMAKE_BUILD_DIR")
        if existing:
            build = Path(existing).resolve()
            if not (build / "CMakeCache.txt").is_file():
                sys.exit(f"SCALEOPT_CMAKE_BUILD_DIR={existing}: not a configured CMake build "
                         "tree (no CMakeCache.txt); configure it first (make python)")
        else:
            build = Path(self.build_temp).resolve() / "cmake"
            build.mkdir(parents=True, exist_ok=True)
            subprocess.run(
                ["cmake", "-S", str(source), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                 f"-DPython_EXECUTABLE={sys.executable}", "-DSCALEOPT_BUILD_TESTS=OFF",
                 "-DSCALEOPT_BUILD_BENCH=OFF", "-DSCALEOPT_BUILD_PYTHON=ON"],
                check=True)
        subprocess.run(
            ["cmake", "--build", str(build), "--target", "_scaleopt", "-j",
             str(os.cpu_count() or 2)],
            check=True)
        # The file name carries the interpreter's ABI (_scaleopt.cpython-311-x86_64-linux-gnu.so):
        # a build tree made for another Python has no file of this name, and must not be copied.
        name = "_scaleopt" + sysconfig.get_config_var("EXT_SUFFIX")
        built = build / "python" / "scaleopt" / name
        if not built.is_file():
            sys.exit(f"{built}: not found: the build tree {build} was not configured for this "
                     f"Python ({sys.executable}); configure it with -DPython_EXECUTABLE=...")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(ext_modules=[CMakeExtension("scaleopt._scaleopt")], cmdclass={"build_ext": CMakeBuild})
