"""Services: one module per system; importing a module registers its commands."""

from __future__ import annotations

import importlib
import pkgutil


def load_all() -> list[str]:
    """Import every service module (the bot's plugins do this one by one)."""
    names = []
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
            names.append(info.name)
    return names
