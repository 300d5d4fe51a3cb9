"""Commands of the popular Chinese dice bots (SealDice, Dice!, OlivaDice, DicePP, cocdicer) that
ChronoDice does not implement, as players type them.

A group often runs one of those bots beside ours: these messages must get no reply from us at
all (``tests/core/test_other_bots.py`` walks this list through the real dispatcher).  Routing
needs no list — a root glued to Latin letters it cannot read is someone else's, and unknown
roots are ignored — the list is the test's evidence and the place to add a report from a group.
When ChronoDice starts implementing one of these, move it out, as ``.rb``/``.rb2``/``.rp`` were
when ``.r`` learnt the bonus/penalty dice ``b2``/``p``, the CoC commands were when CoC 7th came
(:data:`COC_MODE_COMMANDS`), ``.log new/on/off/end`` when ChronoDice got its own ``.log``, and
``.draw``/``.drawh``/``.jrrp``/``.send`` when ChronoDice got decks and 今日人品, ``.ext``/``.sn``
when it got per-group modules and the auto group card, ``.rav``/``.ob``/``.team`` when it got
opposed checks, spectators and teams (issue 30), ``.nnn``/``.name``/``.gugu``/``.deck`` when it
got random names, excuses and a deck list (issue 42), ``.dnd``/``.ds``/``.ss``/``.rs``/``.longrest``
when DnD5e groups got them (issue 42; silent outside DnD5e groups), ``.welcome``/``.reply``
when groups got a welcome text and keyword replies (issue 42), ``.botlist`` when ChronoDice got a
group's list of other bots, and ``.master``/``.text`` when it got the list of its owners and the
owners' text template (issue 42).
"""

from __future__ import annotations

OTHER_BOT_COMMANDS: tuple[str, ...] = (
    # CoC checks and friends (SealDice / Dice! / OlivaDice / cocdicer)
    ".rx 3d6",
    ".rxh 1d100",
    ".rr 1d20",
    ".rsa 3d6",
    ".setdnd",
    ".nnt",
    ".namedice",
    ".nnnx",
    # Dice!'s .me (an action line), SealDice's 安科 and roulette
    ".me 拔出了剑",
    ".ak 开始",
    ".drl 5",
    # SealDice's other rule systems: 艾伦坡 (ek), 双重十字 (dx), 暗影狂奔 (rsr)
    ".ek 侦查 60",
    ".ekgen",
    ".dx 5c10",
    ".rsr 5",
    # fun and decks
    ".drawx 塔罗牌",
    ".jrrpx",
    ".sendto 12345",
    ".gugux",
    ".jsr",
    ".rules 擒抱",
    ".wiki 擒抱",
    ".find 火球术",
    # housekeeping (SealDice's user id, Dice!'s authorisation among them)
    ".userid",
    ".authorize",
    ".admin",
    ".tmpl",
    ".ping",
    ".group state",
    ".ban 12345",
    ".user",
    ".link",
    ".dismissall",
    ".botx",
    # D&D helpers (.dnd .ds .ss .rs .longrest are ours since issue 42, in DnD5e groups)
    ".dndx",
    ".rsx 3d6",
    ".ssx",
    ".dss",
    ".cast 火球术",
    ".dbr",
    ".buffs",
    ".chk 运动",
    ".check 运动",
    ".rihx",
    ".setx 20",
    # from shared/reference/dicebots.md: Dice!'s WoD pool and initiative round, DicePP's
    # rounds (.br .turn .round .skip) and rule lookup (.q), SealDice misc
    ".ws 5",
    ".dset 1",
    ".dat",
    ".RDconf",
    ".turn",
    ".round",
    ".skip",
    ".br",
    ".sa 侦查",
    ".stat log",
    ".q 火球术",
    # SealDice extensions: custom aliases, the cnmods module search, word filter
    ".alias 攻击 .r 1d20",
    ".cnmods search 海边小镇",
    ".modu roll",
    ".censor on",
)

COC_MODE_COMMANDS: tuple[str, ...] = (
    ".ra 侦查",
    ".ra侦查60",
    ".rab2 侦查",
    ".rap 聆听 60",
    ".rah 侦查",
    ".rc 侦查",
    ".sc 1/1d6",
    ".sc1/1d6",
    ".en 侦查",
    ".coc",
    ".coc 5",
    ".coc7",
    ".ti",
    ".li",
    ".setcoc 2",
    ".setcoc2",
    ".rav 斗殴 @某人",
    ".rcv 斗殴 @某人",
)
"""CoC 7th commands that are ours in a fresh group and a coc7 group, and that stay silent in a
group set to another system (``.set tl`` / ``tick20`` / ``pool10`` / ``dnd5e``) so that a SealDice
or Dice! beside us answers them (``.rc 侦查`` included: in those groups ``.rc`` answers only the
D20 form).  See :mod:`chronodice.services.modes`."""

__all__ = ["COC_MODE_COMMANDS", "OTHER_BOT_COMMANDS"]
