"""CoC 7th commands; importing this package registers them (and ``.rc``'s choice of system).

* :mod:`._common` — group settings, the gate that silences CoC-only commands in groups set to
  another system, the one d100 roll (with the dice package's bonus/penalty dice);
* :mod:`.checks` — ``.ra`` ``.rah`` ``.rab`` ``.rap`` and ``.rc``'s resolver;
* :mod:`.sanity` — ``.sc`` ``.en``;
* :mod:`.opposed` — ``.rav`` (``.rcv``), opposed checks;
* :mod:`.tools` — ``.coc`` ``.ti`` ``.li`` ``.setcoc``.
"""

from __future__ import annotations

# isort: off
from . import checks  # .ra .rah .rab .rap, .rc resolver
from . import sanity  # .sc .en
from . import tools  # .coc .ti .li .setcoc
from . import opposed  # .rav .rcv
# isort: on

__all__ = ["checks", "opposed", "sanity", "tools"]
