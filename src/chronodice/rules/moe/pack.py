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
import logging
from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from .cards import ATTRIBUTES

log = logging.getLogger("chronodice.moe.packs")

PACK_DIR = Path(__file__).parent / "packs"
PACK_DIRS: list[Path] = [PACK_DIR]
"""Where :func:`load_pack` looks, first match wins; the bot puts ``<data dir>/packs`` in front."""

Effect = dict[str, Any]
"""One primitive: ``{op_name: arguments}`` (see :data:`.effects.PRIMITIVES`)."""


def use_pack_dir(folder: Path) -> None:
    """Look for packs in ``folder`` (a data directory's ``packs/``) before the built-in ones."""
    if folder not in PACK_DIRS:
        PACK_DIRS.insert(0, folder)
        load_pack.cache_clear()


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
            raise ValueError(f"未知属性「{v}」（可用：{'、'.join(ATTRIBUTES)}）")
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
    alias: list[str] = []
    """Other names ``.moe new`` accepts for this pack (``童话``)."""
    hidden: bool = False
    """Not listed by ``.moe packs`` nor chosen by ``.moe new`` (the test pack)."""
    rules: Rules = Rules()
    cards: dict[str, CardDef]
    deck: list[tuple[str, str, str | int]]
    skills: dict[str, SkillDef] = {}
    characters: dict[str, CharacterDef]
    maps: dict[str, MapDef]

    def content_hash(self) -> str:
        data = self.model_dump(mode="json", exclude={"alias", "hidden"})  # names, not rules
        blob = json.dumps(data, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def card_skill_keys(self, card_key: str) -> list[str]:
        return list(self.cards[card_key].skills)


class PackError(ValueError):
    """A pack failed validation; ``problems`` lists every problem found (in Chinese, each naming
    the file, the card/skill/character/map and the field)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def validate_pack(raw: dict[str, Any], file: str = "<卡包>") -> Pack:
    """Build a :class:`Pack` from parsed YAML, raising :class:`PackError` with all problems
    (see :mod:`.packcheck`)."""
    from .packcheck import problems_of

    problems = problems_of(raw, file)
    if problems:
        raise PackError(problems)
    pack = Pack.model_validate(raw)
    # keys are filled in from the mapping keys
    return pack.model_copy(
        update={
            "cards": {k: v.model_copy(update={"key": k}) for k, v in pack.cards.items()},
            "skills": {k: v.model_copy(update={"key": k}) for k, v in pack.skills.items()},
            "characters": {k: v.model_copy(update={"key": k}) for k, v in pack.characters.items()},
            "maps": {k: v.model_copy(update={"key": k}) for k, v in pack.maps.items()},
        }
    )


def read_pack_file(path: Path, name: str | None = None) -> Pack:
    """Parse and validate one pack file (its ``extends`` looked up in :data:`PACK_DIRS`)."""
    file = path.name
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise PackError([f"{file}：无法读取（{exc.__class__.__name__}）"]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f"第{mark.line + 1}行" if mark is not None else ""
        raise PackError([f"{file}：YAML 格式错误{at}（{getattr(exc, 'problem', '') or exc}）"]) from None
    if isinstance(raw, dict):
        if raw.get("pack") != (name or path.stem):
            stem = name or path.stem
            raise PackError([f"{file}：pack 字段「{raw.get('pack')}」应与文件名「{stem}」相同"])
        base_name = raw.get("extends")
        if base_name:
            try:
                base_path = _pack_file(str(base_name), skip=path)
                base = yaml.safe_load(base_path.read_text(encoding="utf-8"))
            except (FileNotFoundError, yaml.YAMLError, OSError):
                raise PackError([f"{file}：extends 的卡包「{base_name}」不存在或无法读取"]) from None
            # a pack may extend another: its cards, skills, characters and maps come first
            for section in ("cards", "skills", "characters", "maps"):
                raw[section] = {**(base.get(section) or {}), **(raw.get(section) or {})}
            raw.setdefault("rules", base.get("rules", {}))
            raw.setdefault("deck", base.get("deck", []))
    return validate_pack(raw, file)


def _pack_file(name: str, skip: Path | None = None) -> Path:
    for path in _pack_files(name):
        if path != skip:
            return path
    raise FileNotFoundError(f"no 萌E pack {name!r}")


def _pack_files(name: str) -> list[Path]:
    return [folder / f"{name}.yaml" for folder in PACK_DIRS if (folder / f"{name}.yaml").is_file()]


def _signature() -> tuple[object, ...]:
    """Names, sizes and modification times of every pack file: a change reloads (cheap stats)."""
    sig: list[object] = []
    for folder in PACK_DIRS:
        sig.append(str(folder))
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.yaml")):
            try:
                st = path.stat()
            except OSError:
                continue
            sig.append((path.name, st.st_size, st.st_mtime_ns))
    return tuple(sig)


def load_pack(name: str) -> Pack:
    """Load ``<name>.yaml`` from the first of :data:`PACK_DIRS` that has a *valid* one.

    An invalid file in the data directory is skipped (its problems logged) when a later folder
    has a valid pack of that name; with none valid, :class:`PackError` lists the problems of the
    first; with no file at all, :class:`FileNotFoundError`.  Cached until a pack file changes
    (``load_pack.cache_clear()`` empties the cache)."""
    return _load(name, _signature())


@cache
def _load(name: str, _sig: tuple[object, ...]) -> Pack:
    files = _pack_files(name)
    if not files:
        raise FileNotFoundError(f"no 萌E pack {name!r}")
    first: PackError | None = None
    for path in files:
        try:
            return read_pack_file(path, name)
        except PackError as exc:
            log.warning("萌E卡包 %s 无效，已跳过：\n%s", path, "\n".join(exc.problems))
            first = first or exc
    assert first is not None
    raise first


load_pack.cache_clear = _load.cache_clear  # type: ignore[attr-defined]
