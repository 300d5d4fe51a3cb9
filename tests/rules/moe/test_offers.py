"""1.2 character choice for 2–8 players: the offer adapts to the pack's character count, every
seat gets at least one, and no character is offered twice (when the pack has enough)."""

from __future__ import annotations

import random

import pytest

from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.pack import load_pack
from chronodice.rules.moe.record import initial_state


def big_pack(n: int):  # type: ignore[no-untyped-def]
    """The demo pack with ``n`` characters (copies of its own, under new keys)."""
    pack = load_pack("demo")
    base = list(pack.characters.values())
    chars = {f"c{i}": base[i % len(base)].model_copy(update={"key": f"c{i}"}) for i in range(n)}
    return pack.model_copy(update={"characters": chars})


def offers(pack, players: int, seed: int = 1) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """Run the set-up; returns what each seat was offered (a single one is assigned directly)."""
    g = Game(pack, initial_state(pack, [str(i) for i in range(players)]), random.Random(seed))
    g.run(g.main("melee"))
    got: dict[int, list[str]] = {}
    while g.pending is not None and g.pending.reason == "character":
        ask = g.pending
        got[ask.seat] = list(ask.options)
        g.submit(ask.seat, len(ask.options) - 1)
    for p in g.state.players:
        got.setdefault(p.seat, [p.character])
        assert p.character in got[p.seat]
    return [got[s] for s in range(players)]


@pytest.mark.parametrize("players", range(2, 9))
def test_25_characters_give_everyone_three_to_choose_from(players: int) -> None:
    dealt = offers(big_pack(25), players)
    assert [len(o) for o in dealt] == [min(3, 25 // players)] * players
    flat = [c for o in dealt for c in o]
    assert len(flat) == len(set(flat))


@pytest.mark.parametrize("players", range(5, 9))
def test_demo_pack_five_to_eight_players_no_character_twice(players: int) -> None:
    dealt = offers(load_pack("demo"), players)
    flat = [c for o in dealt for c in o]
    assert len(flat) == len(set(flat)) == 15
    assert all(o for o in dealt)
    # issue 27: at up to 7 players everyone chooses from at least two (at 6: 3, 3, 3, 2, 2, 2)
    assert sum(len(o) >= 2 for o in dealt) == (players if players <= 7 else 7)


def test_fewer_characters_than_players_deals_one_each() -> None:
    dealt = offers(big_pack(3), 5)
    assert [len(o) for o in dealt] == [1] * 5
    assert len({c for o in dealt for c in o}) == 3
