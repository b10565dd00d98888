"""Builds etviz's extension module with the project's CMake (no download: every dependency is
a Debian package) and installs it with the pure-Python package.

    /usr/bin/python3 -m venv --system-site-packages venv
    venv/bin/pip install --no-build-isolation ./python
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent.parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        prebuilt = os.environ.get("ETVIZ_PYTHON_PREBUILT")
        if prebuilt:  # a module the project's build already made (tests, packagers)
            shutil.copy2(prebuilt, target)
            self.strip(target)
            return
        build = Path(os.environ.get("ETVIZ_PYTHON_BUILD_DIR", ROOT / "build-python"))
        subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
                               "-DCMAKE_BUILD_TYPE=Release", "-DETVIZ_TESTS=OFF", "-DETVIZ_BENCH=OFF",
                               f"-DETVIZ_PYTHON_EXECUTABLE={sys.executable}"])
        subprocess.check_call(["cmake", "--build", str(build), "--target", "etviz_python"])
        built = next((build / "python" / "etviz").glob("_etviz*.so"))
        shutil.copy2(built, target)
        self.strip(target)

    @staticmethod
    def strip(target):
        # The installed copy without debug information (a RelWithDebInfo module is ~180 MB,
        # ~9 MB without); the build's own module keeps it.
        strip = shutil.which("strip")
        if strip:
            subprocess.check_call([strip, "--strip-debug", str(target)])


setup(packages=["etviz"], package_data={"etviz": ["py.typed", "*.pyi"]},
      ext_modules=[Extension("etviz._etviz", sources=[])], cmdclass={"build_ext": CMakeBuild})
