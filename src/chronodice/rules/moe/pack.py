"""Content packs: cards, characters, skills and map cards as YAML, validated with pydantic.

A pack is data built from the effect primitives of :mod:`.effects` (named after glossary
operations) plus optional Python hooks (``python: <name>`` looks ``name`` up in
``chronodice.rules.moe.packs.hooks``).  Loading validates every effect name, every expression and
every cross-reference, and reports all problems at once.

>>> pack = load_pack("test")
>>> pack.cards["attack"].name, pack.characters["blank"].max_hp
('攻击', 4)
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .cards import ATTRIBUTES, SUITS, rank_value

PACK_DIR = Path(__file__).parent / "packs"
PACK_DIRS: list[Path] = [PACK_DIR]
"""Where :func:`load_pack` looks, first match wins; the bot puts ``<data dir>/packs`` in front."""

Effect = dict[str, Any]
"""One primitive: ``{op_name: arguments}`` (see :data:`.effects.PRIMITIVES`)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TalentReq(_Model):
    kind: Literal["智慧", "力量", "迅捷", "虔诚"]
    need: int = Field(ge=0)


class CardDef(_Model):
    """A card definition (1.3).  ``targets``: none | self | one | all_others | all_injured | all."""

    key: str = ""
    name: str
    category: Literal["basic", "action", "equipment"]
    action_kind: Literal["instant", "secret", "tactic"] | None = None
    attribute: str | None = None
    keywords: list[str] = []
    slot: Literal["weapon", "armour"] | None = None
    range: int | Literal["inf"] | None = None
    skills: list[str] = []
    use_in_play: bool = True
    per_turn: int | None = None
    """Uses per turn, counted together for every card with a ``per_turn`` (the 攻击 family)."""
    targets: Literal["none", "self", "one", "all_others", "all_injured", "all"] = "none"
    target_filter: str = "True"
    can_use: str = "True"
    offset_by: list[str] = []
    nullifiable: bool = False
    response_to: list[str] = []
    effect: list[Effect] = []
    talent: TalentReq | None = None
    bonus: list[Effect] = []
    secret_timing: str | None = None
    secret_condition: str = "True"
    text: str = ""

    @field_validator("attribute")
    @classmethod
    def _attr(cls, v: str | None) -> str | None:
        if v is not None and v not in ATTRIBUTES:
            raise ValueError(f"unknown attribute {v!r}")
        return v


class Modifier(_Model):
    """A queried (status) effect: no timing, read on demand."""

    hand_limit: int = 0
    attack_range: int = 0
    distance_to_others: int = 0
    distance_from_others: int = 0
    draw_count: int = 0
    prevent_attribute: str | None = None


class SkillDef(_Model):
    """A skill (5.x).  ``kind``: status (状态类被动技), passive (非状态类被动技, must fire),
    trigger (可, asks), active (play-phase action), limited (5.2), awakening (5.3), faith (5.4)."""

    key: str = ""
    name: str
    kind: Literal["status", "passive", "trigger", "active", "limited", "awakening", "faith"]
    timing: str | None = None
    watch: Literal["self", "others", "any"] = "self"
    condition: str = "True"
    faith_cost: int = 0
    per_phase: int | None = None
    per_turn: int | None = None
    per_round: int | None = None
    targets: Literal["none", "self", "one"] = "none"
    target_filter: str = "True"
    cost: list[Effect] = []
    cost_cards: int = 0
    cost_zone: Literal["hand", "owned"] = "hand"
    """Owned cards to discard as the cost of an active skill, chosen with the action."""
    effect: list[Effect] = []
    modifiers: Modifier | None = None
    convert: dict[str, str] = {}
    """当 (8.10): ``{from_card_key: to_card_key}`` the owner may use a card as another."""
    text: str = ""


class CharacterDef(_Model):
    key: str = ""
    name: str
    gender: Literal["男", "女", ""] = ""
    max_hp: int = Field(ge=1)
    max_faith: int = Field(ge=0)
    talents: dict[Literal["智慧", "力量", "迅捷", "虔诚"], int]
    skills: list[str] = []
    text: str = ""


class MapDef(_Model):
    """A map mechanism card (1.1): win condition, teams and rewards/penalties (奖惩)."""

    key: str = ""
    name: str
    win: Literal["last_alive", "teams", "faith_temple"]
    teams: Literal["none", "alternate"] = "none"
    players: list[int] = []
    on_kill: list[Effect] = []
    on_kill_ally: list[Effect] = []
    text: str = ""


class Rules(_Model):
    """Engine settings the glossary leaves open (moe-engine.md §5); documented in the help."""

    initial_hand: int = 4
    draw_count: int = 2
    attack_per_turn: int = 1
    attack_card: str = "attack"
    defend_card: str = "defend"
    rescue_card: str = "recover"
    nullify_card: str = "counter"
    characters_offered: int = 3
    max_rounds: int = 40


class Pack(_Model):
    pack: str
    extends: str | None = None
    name: str
    version: str = "1"
    rules: Rules = Rules()
    cards: dict[str, CardDef]
    deck: list[tuple[str, str, str | int]]
    skills: dict[str, SkillDef] = {}
    characters: dict[str, CharacterDef]
    maps: dict[str, MapDef]

    def content_hash(self) -> str:
        blob = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def card_skill_keys(self, card_key: str) -> list[str]:
        return list(self.cards[card_key].skills)


class PackError(ValueError):
    """A pack failed validation; ``problems`` lists every problem found."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _check_effects(effects: list[Effect], where: str, problems: list[str]) -> None:
    from .effects import PRIMITIVES, nested_effects
    from .expr import check_expr

    for eff in effects:
        if not isinstance(eff, dict) or len(eff) != 1:
            problems.append(f"{where}: effect must be a one-key mapping, got {eff!r}")
            continue
        ((op, arg),) = eff.items()
        if op not in PRIMITIVES:
            problems.append(f"{where}: unknown effect primitive {op!r}")
            continue
        if isinstance(arg, dict):
            for k in ("if", "cond", "filter", "n", "feasible"):
                v = arg.get(k)
                if isinstance(v, str):
                    err = check_expr(v)
                    if err:
                        problems.append(f"{where}.{op}.{k}: {err}")
        for sub_where, sub in nested_effects(op, arg):
            _check_effects(sub, f"{where}.{op}.{sub_where}", problems)


def validate_pack(raw: dict[str, Any]) -> Pack:
    """Build a :class:`Pack` from parsed YAML, raising :class:`PackError` with all problems."""
    from .expr import check_expr

    problems: list[str] = []
    try:
        pack = Pack.model_validate(raw)
    except ValidationError as exc:
        raise PackError([f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]) from None
    # keys are filled in from the mapping keys
    pack = pack.model_copy(
        update={
            "cards": {k: v.model_copy(update={"key": k}) for k, v in pack.cards.items()},
            "skills": {k: v.model_copy(update={"key": k}) for k, v in pack.skills.items()},
            "characters": {k: v.model_copy(update={"key": k}) for k, v in pack.characters.items()},
            "maps": {k: v.model_copy(update={"key": k}) for k, v in pack.maps.items()},
        }
    )
    for i, (key, suit, rank) in enumerate(pack.deck):
        if key not in pack.cards:
            problems.append(f"deck[{i}]: unknown card {key!r}")
        if suit not in SUITS:
            problems.append(f"deck[{i}]: unknown suit {suit!r}")
        try:
            rank_value(rank)
        except (ValueError, KeyError):
            problems.append(f"deck[{i}]: bad rank {rank!r}")
    for key, card in pack.cards.items():
        for s in card.skills:
            if s not in pack.skills:
                problems.append(f"cards.{key}: unknown skill {s!r}")
        if card.category == "equipment" and card.slot is None:
            problems.append(f"cards.{key}: equipment needs a slot")
        if card.action_kind == "secret" and not card.secret_timing:
            problems.append(f"cards.{key}: a 奥秘 needs secret_timing")
        for name in ("target_filter", "can_use", "secret_condition"):
            err = check_expr(getattr(card, name))
            if err:
                problems.append(f"cards.{key}.{name}: {err}")
        _check_effects(card.effect, f"cards.{key}.effect", problems)
        _check_effects(card.bonus, f"cards.{key}.bonus", problems)
    for key, skill in pack.skills.items():
        for name in ("condition", "target_filter"):
            err = check_expr(getattr(skill, name))
            if err:
                problems.append(f"skills.{key}.{name}: {err}")
        if skill.kind in ("passive", "trigger", "awakening") and not skill.timing:
            problems.append(f"skills.{key}: a {skill.kind} skill needs a timing")
        _check_effects(skill.cost, f"skills.{key}.cost", problems)
        _check_effects(skill.effect, f"skills.{key}.effect", problems)
    for key, ch in pack.characters.items():
        for s in ch.skills:
            if s not in pack.skills:
                problems.append(f"characters.{key}: unknown skill {s!r}")
    for key, m in pack.maps.items():
        _check_effects(m.on_kill, f"maps.{key}.on_kill", problems)
        _check_effects(m.on_kill_ally, f"maps.{key}.on_kill_ally", problems)
    for role in ("attack_card", "defend_card", "rescue_card", "nullify_card"):
        if getattr(pack.rules, role) not in pack.cards:
            problems.append(f"rules.{role}: unknown card {getattr(pack.rules, role)!r}")
    if problems:
        raise PackError(problems)
    return pack


def _pack_file(name: str) -> Path:
    for folder in PACK_DIRS:
        path = folder / f"{name}.yaml"
        if path.is_file():
            return path
    raise FileNotFoundError(f"no 萌E pack {name!r}")


@cache
def load_pack(name: str) -> Pack:
    """Load ``<name>.yaml`` from the first of :data:`PACK_DIRS` that has it (cached)."""
    raw = yaml.safe_load(_pack_file(name).read_text(encoding="utf-8"))
    base_name = raw.get("extends")
    if base_name:
        # a pack may extend another: its cards, skills, characters and maps come first
        base = yaml.safe_load(_pack_file(base_name).read_text(encoding="utf-8"))
        for section in ("cards", "skills", "characters", "maps"):
            raw[section] = {**base.get(section, {}), **raw.get(section, {})}
        raw.setdefault("rules", base.get("rules", {}))
        raw.setdefault("deck", base.get("deck", []))
    return validate_pack(raw)
