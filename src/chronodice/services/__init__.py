"""Services: one module per system; importing a module registers its commands."""

from __future__ import annotations

import importlib
import pkgutil


def load_all() -> list[str]:
    """Import every service module, which registers its commands; the names, in import order.

    The one way commands are found: the NoneBot plugin, the tests, the command table and the
    guide all call this (the order of the commands within a system in `.help` is this order)."""
    names = []
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
            names.append(info.name)
    return names
