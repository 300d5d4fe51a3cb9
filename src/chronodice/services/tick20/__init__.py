"""D20 tick system commands (tick20.md §4); importing this package registers all of them.

Where things live:

* :mod:`._glue` — store glue: load/apply (one transaction per command), fresh/need, GM and
  controller permissions (is_gm, require_gm, require_control), target lookup, whispers to GMs;
* :mod:`._words` — argument words: tokens, 优势/劣势/被动, typed ``±N`` modifiers, numbers;
* :mod:`.checks` — ``.rc``;
* :mod:`.joining` — ``.ri`` (initiative rolls, joining);
* :mod:`.tracker` — ``.init`` dispatch and flow: begin/start/next/skip/delay/undo/list/status/log/end,
  ``.ed``, ``.延后``;
* :mod:`.gm_tools` — ``.init`` set/add/rm/swap/first/opt/meta/gm/surprise;
* :mod:`.effects` — ``.init`` eff/mod/re/focus (effects and their durations);
* :mod:`.resources` — ``.ap``, ``.wound``, ``.hp``.

The import order below is the order the commands are registered (and listed in the help).
"""

from __future__ import annotations

# isort: off
from . import checks  # .rc
from . import joining  # .ri
from . import tracker  # .init .ed .延后 (with gm_tools and effects)
from . import resources  # .ap .wound .hp
# isort: on

__all__ = ["checks", "joining", "resources", "tracker"]
