"""The web tests' own helpers (``asgi``) are imported from this folder; the ``网页`` sub-commands
are registered around each test."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from chronodice.web.commands import register, unregister

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(autouse=True)
def web_commands() -> Iterator[None]:
    """``.bat 网页`` and the others for the test, and the registry as it was afterwards (other
    tests pin the sub-command lists)."""
    register()
    try:
        yield
    finally:
        unregister()
