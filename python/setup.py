"""Build hook: ship libtoolgate inside the package when it has been built.

`pip install ./python` copies `../target/release/libtoolgate.so` (or the file named
by $TOOLGATE_LIB_BUILD) into the built package as `toolgate/libtoolgate.so`, so the
installed package works without any environment variable. When no library exists
at build time the package is still built (pure Python); it then finds the library
at import through $TOOLGATE_LIB or the system's search path (see README.md).

The wheel is tagged for the platform (py3-none-<platform>) when it carries the
library, and pure (py3-none-any) otherwise. Nothing is compiled here.
"""

import os
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent

if sys.platform == "darwin":
    LIB_NAME = "libtoolgate.dylib"
elif sys.platform == "win32":
    LIB_NAME = "toolgate.dll"
else:
    LIB_NAME = "libtoolgate.so"


def find_built_library():
    explicit = os.environ.get("TOOLGATE_LIB_BUILD")
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise SystemExit(f"TOOLGATE_LIB_BUILD={explicit!r}: no such file")
        return path
    if os.environ.get("TOOLGATE_NO_BUNDLE"):
        return None
    candidate = HERE.parent / "target" / "release" / LIB_NAME
    return candidate if candidate.is_file() else None


LIBRARY = find_built_library()


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        if LIBRARY is None:
            self.announce("toolgate: no built library found; packaging without it", level=2)
            return
        target = Path(self.build_lib) / "toolgate" / LIB_NAME
        target.parent.mkdir(parents=True, exist_ok=True)
        self.announce(f"toolgate: bundling {LIBRARY} as {target}", level=2)
        shutil.copyfile(LIBRARY, target)
        os.chmod(target, 0o755)

    def get_outputs(self, include_bytecode=1):
        outputs = super().get_outputs(include_bytecode)
        if LIBRARY is not None:
            outputs.append(str(Path(self.build_lib) / "toolgate" / LIB_NAME))
        return outputs


cmdclass = {"build_py": BuildPyWithLibrary}

if LIBRARY is not None:
    # A wheel holding a shared library is platform-specific, but it does not depend
    # on the Python ABI (ctypes only): tag it py3-none-<platform>.
    try:
        from setuptools.command.bdist_wheel import bdist_wheel
    except ImportError:  # setuptools < 70.1
        try:
            from wheel.bdist_wheel import bdist_wheel
        except ImportError:
            bdist_wheel = None

    if bdist_wheel is not None:

        class PlatformWheel(bdist_wheel):
            def finalize_options(self):
                super().finalize_options()
                self.root_is_pure = False

            def get_tag(self):
                _, _, plat = super().get_tag()
                return "py3", "none", plat

        cmdclass["bdist_wheel"] = PlatformWheel

setup(cmdclass=cmdclass)
