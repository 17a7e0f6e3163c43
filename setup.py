# The compiled part of the Python module, built by CMake (the project's own build, only the
# target _scaleopt), for `pip install .` (pyproject.toml; docs/python.md).
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        source = Path(__file__).resolve().parent
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
        built = next((build / "python" / "scaleopt").glob("_scaleopt*.so"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(ext_modules=[CMakeExtension("scaleopt._scaleopt")], cmdclass={"build_ext": CMakeBuild})
