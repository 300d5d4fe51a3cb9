"""The web tests' own helpers (``asgi``) are imported from this folder; the ``网页`` sub-commands
are registered with the services (:mod:`chronodice.services.web_links`)."""

from __future__ import annotations

import sys
from pathlib import Path

import chronodice.services.web_links  # noqa: F401

sys.path.insert(0, str(Path(__file__).resolve().parent))
