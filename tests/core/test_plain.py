"""``plain`` is ``dataclasses.asdict``, faster: same values, same container types."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

from hypothesis import given
from hypothesis import strategies as st

from chronodice.app import App
from chronodice.core.plain import plain
from chronodice.rules.timeline.battle import BattleState


class Colour(enum.Enum):
    RED = "r"


class Point(NamedTuple):
    x: int
    y: float


@dataclass(frozen=True)
class Leaf:
    name: str
    hp: float
    tags: tuple[str, ...] = ()
    colour: Colour = Colour.RED


@dataclass
class Tree:
    leaves: list[Leaf] = field(default_factory=list)
    by_name: dict[str, Leaf] = field(default_factory=dict)
    point: Point = field(default_factory=lambda: Point(1, 2.0))
    extra: Any = None


leaves = st.builds(
    Leaf, st.text(max_size=4), st.floats(allow_nan=False), st.lists(st.text(max_size=2)).map(tuple)
)
json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3),
    max_leaves=10,
)


@given(st.lists(leaves, max_size=5), json_like)
def test_plain_equals_asdict(items: list[Leaf], extra: Any) -> None:
    tree = Tree(items, {leaf.name: leaf for leaf in items}, extra=extra)
    got, want = plain(tree), asdict(tree)
    assert got == want
    assert type(got["point"]) is Point and [type(v["tags"]) for v in got["leaves"]] == [tuple] * len(items)
    if isinstance(extra, list | dict) and extra:
        assert got["extra"] is not extra  # containers are copies, as asdict makes them


async def test_a_played_battle_converts_as_asdict_did(app: App) -> None:
    """A battle of two characters and three actions: the stored form is what asdict gave."""
    from helpers import run

    sheet = (
        ".TLsetup 姓名:{},等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,"
        "医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,外貌:50,资产:50"
    )
    await run(app, sheet.format("甲"), user="501")
    await run(app, sheet.format("乙"), user="502")
    for text, user in [(".bat 力量 30 挥剑", "501"), (".bat 敏捷 12 闪身", "502"), (".bat 力量 45", "501")]:
        await run(app, text, user=user)
    raw, _ = await app.store.sessions.load_session("20002", "timeline")
    state = BattleState.from_dict(raw)
    assert len(state.actions) == 3
    assert state.to_dict() == asdict(state)
    for item in (*state.participants, *state.actions, *state.events):
        assert plain(item) == asdict(item)
