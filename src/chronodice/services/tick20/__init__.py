"""D20 tick system commands (tick20.md §4); importing this package registers all of them.

Where things live:

* :mod:`._glue` — store glue: load/apply (one transaction per command), fresh/need, the GM lists
  for the one permission policy (:mod:`chronodice.core.permissions`), controller checks, target
  lookup, whispers to GMs;
* :mod:`.kinds` — argument kinds: typed ``±N`` modifiers, ``=表达式``, two-die checks, combatant
  names and lists, ``-键 值`` options, durations, one ``.ri`` entry; :mod:`.kinds_rules` — ``-部位``,
  ``伤害N``, ``重击``, ``斩杀``, ``消耗``;
* :mod:`.checks` — ``.rc``;
* :mod:`.joining` — ``.ri`` (initiative rolls, joining);
* :mod:`.tracker` — ``.init`` declaration and flow: list/begin/start/next/skip/delay/undo/log/end/
  status, ``.ed``, ``.延后``;
* :mod:`.gm_tools` — ``.init`` set/add/rm/swap/first/opt/meta/gm/surprise;
* :mod:`.effects` — ``.init`` eff/mod/re/focus (effects and their durations);
* :mod:`.resources` — ``.ap`` (alone: the sender's AP), ``.wound`` (精神伤害: SP), ``.hp``;
* :mod:`.actions` — ``.init 动作数``, ``.动作`` (004 actions), ``.mov`` (002 Mov), ``.濒死``;
* :mod:`.attack` — ``.atk``, an attack in one command; :mod:`.attack_turn` — its AP, refusals and
  ``结束``; :mod:`.effect_mods` — effects that change checks;
* :mod:`.npc_attacks` — ``.npc 攻击`` (named attacks on an NPC card, used by ``.atk``);
* :mod:`.comfort` — ``.init 击败/清场/跳至/note``;
* :mod:`.persona` — ``.量谱``, ``.人格``, ``.属性`` and ``.rc``'s ``量谱``/``自我`` (the last 002 rules);
  :mod:`.after_roll` — ``.自我``, 自我 spent after the roll;
* :mod:`.hiding` — hidden NPCs (issue 39): ``.init 隐藏/现身``, and the guard wrapped around every
  sub-command so that no group reply names a hidden combatant.

The import order below is the order the commands are registered (and listed in the help).
"""

from __future__ import annotations

# isort: off
from . import checks  # .rc
from . import joining  # .ri
from . import tracker  # .init .ed .延后
from . import gm_tools  # .init set/add/rm/swap/first/opt/meta/gm/surprise
from . import effects  # .init eff/mod/re/focus
from . import resources  # .ap .wound .hp
from . import actions  # .init 动作数, .动作, .mov, .濒死
from . import attack  # .atk
from . import npc_attacks  # .npc 攻击
from . import comfort  # .init 击败/清场/跳至/note
from . import persona  # .量谱 .人格 .属性
from . import after_roll  # .自我
from . import hiding  # .init 隐藏/现身; the guard on every sub-command above
# isort: on

hiding.guard()

__all__ = [
    "actions",
    "after_roll",
    "attack",
    "checks",
    "comfort",
    "effects",
    "gm_tools",
    "hiding",
    "joining",
    "npc_attacks",
    "persona",
    "resources",
    "tracker",
]
