# SPDX-License-Identifier: GPL-3.0-or-later
"""Builds weightspace._native with the project's CMake (target weightspace_python) for the
interpreter running pip, and packages it with python/weightspace/."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        build = Path(self.build_temp).resolve() / "cmake"
        subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                               "-DWEIGHTSPACE_BUILD_TESTS=OFF", "-DWEIGHTSPACE_BUILD_BENCH=OFF",
                               "-DWEIGHTSPACE_BUILD_CLI=OFF",
                               f"-DPython3_EXECUTABLE={sys.executable}"])
        subprocess.check_call(["cmake", "--build", str(build), "--target", "weightspace_python",
                               "-j", str(os.cpu_count() or 1)])
        built = next((build / "python" / "weightspace").glob("_native*.so"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(
    packages=["weightspace"],
    package_dir={"": "python"},
    package_data={"weightspace": ["*.pyi", "py.typed"]},
    ext_modules=[Extension("weightspace._native", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
