# SPDX-License-Identifier: Apache-2.0
"""`import maxpool` with a library that cannot be loaded raises an ImportError
that names the missing library and what to do, not a raw OSError (issue 17
item 2: a source build on a system without libgomp.so.1).

The library here is a stand-in built for the test: a shared object that
needs libmpstub_missing.so, built against a stub that is then deleted, so the
dynamic loader fails exactly as it does for a missing libgomp.so.1.
scripts/test_wheel.sh checks the real case (libgomp hidden)."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

SRC = pathlib.Path(__file__).resolve().parents[2] / "python" / "src"


def import_with(library, tmp_path):
    env = dict(os.environ, MAXPOOL_LIBRARY=str(library), PYTHONPATH=str(SRC))
    code = (
        "try:\n"
        "    import maxpool\n"
        "except ImportError as e:\n"
        "    print('ImportError:', e)\n"
        "except OSError as e:\n"
        "    print('OSError:', e)\n"
        "else:\n"
        "    print('imported')\n"
    )
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_missing_dependency_is_a_clear_import_error(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler")
    (tmp_path / "stub.c").write_text("int mpstub(void) { return 1; }\n")
    (tmp_path / "lib.c").write_text("int mpstub(void);\nint maxpool_stand_in(void) { return mpstub(); }\n")
    subprocess.run([cc, "-shared", "-fPIC", "stub.c", "-o", "libmpstub_missing.so"], cwd=tmp_path, check=True)
    subprocess.run([cc, "-shared", "-fPIC", "lib.c", "-L.", "-lmpstub_missing", "-o", "libmaxpool.so"],
                   cwd=tmp_path, check=True)
    (tmp_path / "libmpstub_missing.so").unlink()
    out = import_with(tmp_path / "libmaxpool.so", tmp_path)
    assert out.startswith("ImportError: maxpool: cannot load"), out
    assert "it needs libmpstub_missing.so, which is not installed" in out, out
    assert "manylinux wheel" in out, out


def test_not_a_library_is_an_import_error(tmp_path):
    bogus = tmp_path / "libmaxpool.so"
    bogus.write_text("not an ELF file\n")
    out = import_with(bogus, tmp_path)
    assert out.startswith("ImportError: maxpool: cannot load"), out
    assert "rebuild it for this machine" in out, out
