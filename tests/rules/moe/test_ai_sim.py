"""Seeded simulations (issue 27): 托管 and AI seats never harm their own side on 双王国 and give
only to allies; on a free-for-all map they give nothing; the AI beats a random legal player.

The full-size figures are ``benchmarks/bench_moe_ai.py``; these are small enough for the suite
and fail if the policy regresses (the same tally over random seats finds ally harm at once)."""

from __future__ import annotations

from chronodice.rules.moe.ai_sim import Tally, play

POLICY_TEAMS = [("takeover", "takeover"), ("takeover", "ai"), ("ai", "takeover"), ("ai", "ai")]


def kingdoms_layout(i: int) -> list[str]:
    """Game ``i``: a policy team (alternately seats 0 and 2, or 1 and 3) against random players."""
    a, b = POLICY_TEAMS[i % len(POLICY_TEAMS)]
    return [a, "random", b, "random"] if i % 2 == 0 else ["random", a, "random", b]


FFA_LAYOUTS = [["takeover", "random", "ai", "random"], ["random", "ai", "takeover", "random"]]


def policy_tally(layouts: list[list[str]], map_key: str, *, swap_to_random: bool = False) -> Tally:
    """The tally of the seats played by a policy (``swap_to_random``: the same seats played
    randomly instead — the contrast)."""
    total = Tally()
    for seed, ctrl in enumerate(layouts):
        seats = [s for s, c in enumerate(ctrl) if c != "random"]
        played = ["random"] * len(ctrl) if swap_to_random else ctrl
        r = play(seed, played, map_key=map_key)
        for name in Tally.__dataclass_fields__:
            counter = getattr(r.tally, name)
            getattr(total, name).update({s: counter[s] for s in seats})
    return total


def totals(t: Tally) -> dict[str, int]:
    return {name: sum(getattr(t, name).values()) for name in Tally.__dataclass_fields__}


def test_policy_seats_never_harm_their_team_on_kingdoms() -> None:
    got = totals(policy_tally([kingdoms_layout(i) for i in range(12)], "kingdoms"))
    assert got["ally_damage"] == 0
    assert got["ally_kills"] == 0
    assert got["ally_harmful_uses"] == 0
    assert got["gifts_to_others"] == 0
    assert got["gifts_to_allies"] > 0 and got["enemy_damage"] > 20 and got["enemy_kills"] > 0


def test_random_seats_in_the_same_places_do_harm_their_team() -> None:
    """The contrast: today's random 托管 in the same seats hurts its own side (the tally can fail)."""
    got = totals(policy_tally([kingdoms_layout(i) for i in range(12)], "kingdoms", swap_to_random=True))
    assert got["ally_damage"] > 0 and got["ally_harmful_uses"] > 0


def test_free_for_all_policy_seats_give_nothing_away() -> None:
    got = totals(policy_tally([FFA_LAYOUTS[i % 2] for i in range(6)], "melee"))
    assert got["gifts_to_others"] == 0 and got["gifts_to_allies"] == 0
    assert got["enemy_damage"] > 0


def test_ai_beats_a_random_player_one_on_one() -> None:
    """40 games of 乱斗森林, the AI alternately first and second: at least 65% won (the
    benchmark measures 200 games; it wins far more)."""
    wins = 0
    for seed in range(40):
        ctrl = ["ai", "random"] if seed % 2 == 0 else ["random", "ai"]
        r = play(seed, ctrl, map_key="melee")
        wins += ctrl.index("ai") in r.winners
    assert wins >= 26, wins


def test_takeover_beats_a_random_player() -> None:
    """Issue 44: 托管 against a random legal player won 0 of 300 (99 draws): it never attacked.
    100 seeded one-on-one games of 乱斗森林, 托管 alternately first and second: it must win
    clearly more than it loses (measured: 77 won, 19 lost, 4 drawn; 2v2 on 双王国: 86 won,
    1 lost, 13 drawn)."""
    won = lost = 0
    for seed in range(100):
        ctrl = ["takeover", "random"] if seed % 2 == 0 else ["random", "takeover"]
        r = play(seed, ctrl, map_key="melee")
        if r.winners:
            won += ctrl.index("takeover") in r.winners
            lost += ctrl.index("takeover") not in r.winners
    assert won >= 2 * lost and won >= 55, (won, lost)


def test_two_takeover_seats_finish_a_game() -> None:
    """Two players on 托管 used to play 40 rounds to a draw; now one of them wins."""
    results = [play(seed, ["takeover", "takeover"], map_key="melee") for seed in range(20)]
    assert sum(1 for r in results if r.winners) >= 16
