"""TimeLine (时间线) commands: MayuriBot's command set on the shared store, plus what it lacked.

Parity commands (``rules/timeline.md`` §4, §9): ``.TLsetup .chr .lv .crd .buff .dr .setupWP .wp
.tar .ex .neg .pre .bat`` with MayuriBot's aliases (``.ch .d .ta .bu .buf .ne .pr .ba``).  New:
``.coop`` (协同检定), ``.opp`` (对抗检定 adjudication), ``.clash`` (交互) and ``.tlconf`` (group
options: open GM-only commands to everyone, sheet-style display).

Where the code lives (importing this package registers every command, in this order):

* :mod:`._common`: shared store glue and helpers (settings, display, ``active_tl``, ``mutate_tl``,
  ``tl_target``, ``who_acts`` / ``find_named``, ``require_unless_open``: GM decisions through
  :mod:`chronodice.core.permissions`);
* :mod:`.kinds`: the argument kinds (attribute, ``属性 影响数值|前摇t``, ``10t``, ``15d``, ``#3`` …);
* :mod:`.characters`: ``.TLsetup .chr .lv .crd`` (and ``.crd``'s battle-timeline hook);
* :mod:`.modifiers`: ``.buff .dr``;
* :mod:`.weapons`: ``.setupWP .wp``;
* :mod:`.armour`: ``.armor`` (extra 体力 above the maximum, with its 负重);
* :mod:`.checks`: ``.tar .ex .neg .pre .coop .opp .clash .tlconf``;
* :mod:`.battle`: ``.bat`` and its helpers (the clock: :mod:`chronodice.rules.timeline.battle`);
* :mod:`.feed`: the clock-moving ``.bat`` commands' one logged write, resolution feed, automatic
  damage and compact reply (issue 25);
* :mod:`.opening`: ``.bat 开始`` (the GM ends the opening, optionally with the roster);
* :mod:`.targets`: whom ``>目标`` and the roster name (participants, cards of this group);
* :mod:`.control`: ``.bat 控制`` (control effects on the timeline);
* :mod:`.kind`: ``.bat 类型`` (what an action's impact is: 伤害, 治疗, 控制 …, issue 39);
* :mod:`.options`: ``.bat 自动伤害`` (a battle setting) and ``.bat 详细`` (a group setting);
* :mod:`.recovery`: ``.crd 休息`` (rest) and ``.heal`` (医学 check);
* :mod:`.field`: ``.dist`` (box distance, movement windup, weapon range);
* :mod:`.debuffs`: ``.debuff`` (减益 pools that reduce the next impacts) and the ``.bat`` hook.

Where the data lives:

* characters: ``CharacterRecord`` with ``system="timeline"``, ``data["timeline"]`` = the engine's
  :class:`~chronodice.rules.timeline.character.TLCharacter`; the active one per (user, group)
  is the store binding (``.chr k`` binds in this group);
* target value, negotiation counterpart and options: group settings under ``"timeline"``;
* the battle: session ``(scope, "timeline")`` holding a
  :class:`~chronodice.rules.timeline.battle.BattleState`, so ``.undo`` reverts the last timeline
  command.  Artillery ammunition is kept in the battle while it runs and written back to the
  character on ``.bat out`` / ``.bat end`` (in the same logged command: ``.undo`` takes both back).

Every command is declared with typed sub-commands (``define`` + ``.sub``); the router answers a
short alias glued to Latin letters only when a keyword or a typed argument reads them, so
``.draw``, ``.chat`` or ``.dice`` meant for other bots are ignored (MayuriBot answered them).
"""

from __future__ import annotations

# The import order is the registration order, which orders the help and the README table.
from . import characters, modifiers, weapons, armour, checks, battle  # isort: skip
from . import opening, control, kind, hiding, options, recovery, field, debuffs  # isort: skip
from ._common import SYS_CN, SYSTEM

__all__ = [
    "SYSTEM",
    "SYS_CN",
    "armour",
    "battle",
    "characters",
    "checks",
    "control",
    "debuffs",
    "field",
    "hiding",
    "kind",
    "modifiers",
    "opening",
    "options",
    "recovery",
    "weapons",
]
