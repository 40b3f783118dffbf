# The package ships the same cairn.wasm the JavaScript uses. It is built by `./build.sh wasm`
# into web/dist and never committed, so the build copies it into the package here.
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = os.environ.get("CAIRN_WASM", os.path.join(HERE, "..", "web", "dist", "cairn.wasm"))


class BuildWithModule(build_py):
    def run(self):
        super().run()
        if not os.path.isfile(MODULE):
            raise SystemExit(
                f"cairn: {os.path.normpath(MODULE)} is missing: build the module first "
                "(./build.sh wasm), or point CAIRN_WASM at a cairn.wasm")
        target = os.path.join(self.build_lib, "cairn")
        os.makedirs(target, exist_ok=True)
        shutil.copyfile(MODULE, os.path.join(target, "cairn.wasm"))


setup(cmdclass={"build_py": BuildWithModule})
