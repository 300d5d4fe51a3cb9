"""``.bat 网页``, ``.init 网页``, ``.moe 网页``, ``.log 网页``: registered with every other command.

The link commands themselves live in :mod:`chronodice.web.commands`; they are sub-commands of
four families, so they are added here, after importing those families, whenever the services
are loaded (the bot's plugins, :func:`chronodice.services.load_all`, the command table, the
guide).  Registering them only when the pages were mounted made the registry — ``.help``, the
command table and the sub-command lists tests pin — depend on whether a web server had started.
Without ``CHRONODICE_PUBLIC_URL`` the commands say how to set it.
"""

from __future__ import annotations

from chronodice.services import gamelog, moe, tick20, timeline  # noqa: F401  (the four families first)
from chronodice.web.commands import register

ADDED = register()
"""The roots that gained ``网页`` (all four, unless something registered them before)."""
