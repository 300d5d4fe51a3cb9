"""Content packs: cards, characters, skills and map cards as YAML, validated with pydantic.

A pack is data built from the effect primitives of :mod:`.effects` (named after glossary
operations) plus optional Python hooks (``python: <name>`` looks ``name`` up in
``chronodice.rules.moe.packs.hooks``).  Loading validates every effect name, every expression and
every cross-reference, and reports all problems at once.

Packs are user input, read only from the pack folders (:data:`PACK_DIRS`): ``extends`` names
another pack (a plain name, never a path), a file or a link that leads out of the pack folders
is refused, a file over :data:`MAX_PACK_BYTES` is not read, and YAML aliases (``&a`` / ``*a``)
may not expand the document beyond :data:`MAX_YAML_NODES` nodes (a "billion laughs" is refused
before anything is built from it).  Problems quote at most
:data:`~.packtext.QUOTE_LIMIT` characters of any value and a pack reports at most
:data:`MAX_PROBLEMS` of them, so neither ``.moe packs`` nor the log line about a bad pack grows
with the file.

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
from typing import Any, Literal, TypeGuard

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .cards import ATTRIBUTES
from .packtext import QUOTE_LIMIT, brief, merge_deck_problems
from .packyaml import MAX_YAML_NODES as MAX_YAML_NODES
from .packyaml import PackError as PackError
from .packyaml import parse_yaml as parse_yaml
from .packyaml import problem_count as problem_count

log = logging.getLogger("chronodice.moe.packs")

PACK_DIR = Path(__file__).parent / "packs"
PACK_DIRS: list[Path] = [PACK_DIR]
"""Where :func:`load_pack` looks, first match wins; the bot puts ``<data dir>/packs`` in front."""

MAX_PACK_BYTES = 1_000_000
"""A pack file larger than this is refused unread (the shipped packs are under 40 kB)."""
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
            raise ValueError(f"未知属性「{brief(v)}」（可用：{'、'.join(ATTRIBUTES)}）")
        return v


class Modifier(_Model):
    """A queried (status) effect: no timing, read on demand."""

    hand_limit: int = 0
    attack_range: int = 0
    distance_to_others: int = 0
    distance_from_others: int = 0
    draw_count: int = 0
    prevent_attribute: str | None = None
    ignore_distance: bool = False
    """7.6: the owner's card uses ignore distance when their targets are checked."""


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
    treat_as: dict[str, str] = {}
    """视为 (8.11.2) as a locked rule: ``{from_card_key: to_card_key}``, the owner's card of the
    first kind is only ever used as the second (a status skill)."""
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


def validate_pack(raw: dict[str, Any], file: str = "<卡包>") -> Pack:
    """Build a :class:`Pack` from parsed YAML, raising :class:`PackError` with all problems
    (see :mod:`.packcheck`)."""
    from .packcheck import problems_of

    problems = problems_of(raw, file)
    if problems:
        raise PackError(merge_deck_problems(problems))
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
    """Parse and validate one pack file (its ``extends`` looked up in :data:`PACK_DIRS`).

    ``path`` may be a link only to a file in its own folder or in a pack folder; ``extends``
    must be a plain pack name (:func:`is_pack_name`) whose file is in a pack folder too.  The
    base is the first *valid* pack of that name (an invalid copy in the data directory is passed
    over, as :func:`load_pack` does); with none valid, the problem says the base is invalid and
    quotes its first problems, instead of every card the extension misses from it."""
    file = brief(path.name)
    raw = _merged_raw(path, name or path.stem, ())
    try:
        return validate_pack(raw, file)
    except PackError as exc:
        exc.hidden = isinstance(raw, dict) and raw.get("hidden") is True
        raise


BASE_PROBLEMS = 3
"""Problems of an invalid base pack quoted in the problem of a pack that extends it."""


def _merged_raw(path: Path, name: str, chain: tuple[str, ...]) -> dict[str, Any]:
    """The parsed YAML of ``path`` with its ``extends`` chain merged in (each base validated);
    ``chain`` holds the names met on the way, so a loop of ``extends`` is a problem."""
    file = brief(path.name)
    if not _confined(path, path.parent):
        raise PackError([f"{file}：指向卡包文件夹之外（链接？），已拒绝"])
    raw = _read_yaml(path, file)
    if not isinstance(raw, dict):
        return raw  # validation says what is wrong with it
    if raw.get("pack") != name:
        raise PackError([f"{file}：pack 字段「{brief(raw.get('pack'))}」应与文件名「{brief(name)}」相同"])
    base_name = raw.get("extends")
    if base_name:
        _merge_base(raw, _read_base(base_name, path, file, (*chain, name)))
    return raw


def is_pack_name(name: object) -> TypeGuard[str]:
    """Whether ``name`` is a plain pack name (the stem of a file in a pack folder), never a path:
    no ``/`` or ``\\``, no drive letter (``:``), no leading dot (``..``, hidden files), no NUL or
    other control character, at most 100 characters."""
    return (
        isinstance(name, str)
        and 0 < len(name) <= 100
        and not name.startswith(".")
        and not any(ch in name for ch in "/\\:")
        and name.isprintable()
    )


def _read_base(base_name: object, path: Path, file: str, chain: tuple[str, ...]) -> dict[str, Any]:
    """The merged, valid pack that ``path`` extends (the first valid file of that name); a name
    that is not a plain pack name, a pack that is missing, unreadable, invalid, part of a loop or
    leads out of the pack folders is a problem naming ``extends``."""
    shown = brief(base_name)
    if not is_pack_name(base_name):
        why = "只能写卡包文件夹中另一个卡包的名字，不能写路径"
        raise PackError([f"{file}：extends「{shown}」不是卡包名（{why}），已拒绝"])
    if base_name in chain:
        loop = " → ".join(brief(n) for n in (*chain, base_name))
        raise PackError([f"{file}：extends 形成循环（{loop}），已拒绝"])
    files = [p for p in _pack_files(base_name) if p != path]
    if not files:
        raise PackError([f"{file}：extends 的卡包「{shown}」不存在或无法读取"])
    first: PackError | None = None
    for base_path in files:
        base_file = brief(base_path.name)
        if not _confined(base_path):
            first = first or PackError(
                [f"{file}：extends 的卡包「{shown}」指向卡包文件夹之外（链接？），已拒绝"]
            )
            continue
        try:
            base = _merged_raw(base_path, base_name, chain)
            if not isinstance(base, dict):
                raise PackError([f"{base_file}：文件内容应为 YAML 映射（pack: … name: … cards: …）"])
            validate_pack(dict(base), base_file)
            return base
        except PackError as exc:
            first = first or exc
    assert first is not None
    if first.problems[0].startswith(f"{file}："):
        raise first
    total = problem_count(first.problems)
    quoted = [f"  {p}" for p in first.problems[:BASE_PROBLEMS]]
    more = [f"  ……另有{total - BASE_PROBLEMS}处" if total > BASE_PROBLEMS else ""]
    why = f"{file}：extends 的卡包「{shown}」无效（共{total}处问题），本卡包因此无法加载；先修好它："
    raise PackError([why, *quoted, *[m for m in more if m]])


def _merge_base(raw: dict[str, Any], base: dict[str, Any]) -> None:
    """A pack that extends ``base``: base's cards, skills, characters and maps come first (a
    section that is not a mapping is left for validation to report), then its rules and deck."""
    for section in ("cards", "skills", "characters", "maps"):
        mine, theirs = raw.get(section) or {}, base.get(section) or {}
        if isinstance(mine, dict) and isinstance(theirs, dict):
            raw[section] = {**theirs, **mine}
    raw.setdefault("rules", base.get("rules", {}))
    raw.setdefault("deck", base.get("deck", []))


def _confined(path: Path, *also: Path) -> bool:
    """Whether ``path``, links followed, is a file inside a pack folder (or one of ``also``)."""
    try:
        real = path.resolve(strict=True)
        roots = [folder.resolve() for folder in (*PACK_DIRS, *also)]
    except (OSError, RuntimeError):  # missing, a loop of links
        return False
    return any(real.is_relative_to(root) for root in roots)


def _read_yaml(path: Path, file: str) -> Any:
    """The parsed YAML of a pack file: at most :data:`MAX_PACK_BYTES` read, a regular file only
    (not a pipe or a device), aliases within :data:`MAX_YAML_NODES`."""
    try:
        if not path.is_file():
            raise PackError([f"{file}：不是普通文件，已跳过"])
        with path.open("rb") as f:
            data = f.read(MAX_PACK_BYTES + 1)
        if len(data) > MAX_PACK_BYTES:
            raise PackError([f"{file}：文件过大（超过 {MAX_PACK_BYTES // 1000} kB），未读取"])
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PackError([f"{file}：无法读取（{exc.__class__.__name__}）"]) from None
    return parse_yaml(text, file)


def _pack_files(name: str) -> list[Path]:
    """``<name>.yaml`` in every pack folder that has it (none for a name that is not a plain
    pack name)."""
    if not is_pack_name(name):
        return []
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
        raise FileNotFoundError(f"no 萌E pack {name[:QUOTE_LIMIT]!r}")
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
