# SPDX-License-Identifier: Apache-2.0
"""One version everywhere (issue 17 item 7): maxpool.__version__ (the loaded
library's maxpool_version()) is the MAXPOOL_VERSION_* of include/maxpool.h,
and, when the package is installed, its distribution metadata says the same
(python/pyproject.toml reads the header). tests/install/test_install.sh
checks CMake, pkg-config and the CMake package."""

from __future__ import annotations

import importlib.metadata
import pathlib
import re

import maxpool

ROOT = pathlib.Path(__file__).resolve().parents[2]


def header_version():
    text = (ROOT / "include" / "maxpool.h").read_text()
    parts = [re.search(rf"^#define MAXPOOL_VERSION_{p} +(\d+)$", text, re.M).group(1) for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def test_version_is_the_headers():
    assert re.fullmatch(r"\d+\.\d+\.\d+", maxpool.__version__)
    assert maxpool.__version__ == header_version()


def test_installed_metadata_matches():
    try:
        dist = importlib.metadata.version("maxpool")
    except importlib.metadata.PackageNotFoundError:
        import pytest

        pytest.skip("maxpool is not installed (run from the source tree)")
    assert dist == maxpool.__version__
