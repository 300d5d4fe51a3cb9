"""萌E pack hash and recovery (issue 13): a changed pack or a replay desync gives the group a
clear message and a way on (``.moe recover`` continues from the last consistent point, ``.moe
recover 结束`` ends with the standings), is logged, and never stops another group."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from helpers import moe_game as game
from helpers import moe_started as started
from helpers import run, say

import chronodice.services.moe as moe
from chronodice.app import App
from chronodice.rules.moe.pack import load_pack
from chronodice.rules.moe.record import DesyncError, new_record, rebuild, start
from chronodice.rules.moe.recovery import check_fits, resume, standings

G, G2 = "20002", "20003"
USERS = ["30001", "30002", "30003"]
USERS2 = ["31001", "31002"]


async def into_turn(app: App, n: int = 3) -> None:
    """Answer ``n`` requests after the latest turn-start snapshot (inputs that a resume drops)."""
    for _ in range(n):
        state, g = await game(app)
        ask = g.pending
        user = state["players"][ask.seat]["user"]
        cmd = (
            ".moe end"
            if ask.kind == "play"
            else ".moe pass"
            if ask.optional or ask.kind in ("invoke", "respond")
            else ".moe choose 1"
        )
        await run(app, cmd, user=user, group=G)


async def corrupt(app: App, change: Any, group: str = G) -> None:
    def fn(st):  # type: ignore[no-untyped-def]
        st["record"] = change(dict(st["record"]))
        return st, None

    await app.store.sessions.apply_session(group, "moe", fn)


def changed_pack(rec: dict[str, Any]) -> dict[str, Any]:
    return {**rec, "pack_hash": "f" * 16}  # as if the pack file had been edited since the start


def desync(rec: dict[str, Any]) -> dict[str, Any]:
    inputs = list(rec["inputs"])
    inputs[-1] = {**inputs[-1], "serial": inputs[-1]["serial"], "seat": (inputs[-1]["seat"] + 1) % 3}
    return {**rec, "inputs": inputs}


# ---------------------------------------------------------------------- engine
def test_rebuild_names_the_cause() -> None:
    rec, _g, _ = start(new_record("demo", ["1", "2"], seed=4))
    with pytest.raises(DesyncError) as info:
        rebuild(changed_pack(rec))
    assert info.value.cause == "pack_changed"
    with pytest.raises(DesyncError) as info:
        rebuild({**rec, "pack": "no-such-pack"})
    assert info.value.cause == "pack_missing"
    assert rebuild(changed_pack(rec), check_pack=False).state.digest() == rebuild(rec).state.digest()


def test_check_fits_refuses_a_snapshot_naming_what_the_pack_lacks() -> None:
    rec, g, _ = start(new_record("demo", ["1", "2"], seed=4, characters=["alice", "red_hood"]))
    state = g.state.to_dict()
    check_fits(state, load_pack("demo"))
    state["cards"]["1"] = ["gone_card", "spade", 1]
    with pytest.raises(DesyncError, match="gone_card"):
        check_fits(state, load_pack("demo"))
    assert standings(rec) is not None and standings({**rec, "snapshot": None}) is None


def test_resume_before_any_snapshot_restarts_the_set_up() -> None:
    rec, g, _ = start(new_record("demo", ["1", "2"], seed=9))
    assert rec["snapshot"] is None and g.pending.reason == "character"
    g.submit(g.pending.seat, 0)
    from chronodice.rules.moe.record import to_record

    broken = {**to_record(g, rec), "digest": "0" * 16}
    new, g2, how, _events = resume(broken)
    assert how == "start" and new["inputs"] == [] and g2.pending.reason == "character"


# ---------------------------------------------------------------------- service
async def test_changed_pack_message_then_recover_continues_with_nothing_lost(
    app: App, caplog: pytest.LogCaptureFixture
) -> None:
    await started(app)
    await into_turn(app)
    state, g = await game(app)
    digest, inputs = g.state.digest(), len(g.inputs)
    await corrupt(app, changed_pack)
    with caplog.at_level(logging.ERROR, logger="chronodice"):
        text = await say(app, ".moe state", user=USERS[1], group=G)
    assert text.startswith("本群的萌E对局出错，无法继续：卡包内容在对局开始后被修改。")
    assert ".moe recover" in text and ".moe recover 结束" in text
    assert any("pack_changed" in r.getMessage() and G in r.getMessage() for r in caplog.records)
    user = state["players"][g.pending.seat]["user"]
    assert "无法继续" in await say(app, ".moe end", user=user, group=G)
    assert "房主或GM" in await say(app, ".moe recover", user=USERS[1], group=G)
    text = await say(app, ".moe recover", user=USERS[0], group=G)
    assert text.startswith("萌E对局出错（卡包内容在对局开始后被修改）：存档完整，已按当前卡包继续")
    state, g = await game(app)
    assert g.state.digest() == digest and len(g.inputs) == inputs
    assert state["record"]["pack_hash"] == load_pack("demo").content_hash()
    assert "无需恢复" in await say(app, ".moe recover", user=USERS[0], group=G)


async def test_desync_recover_goes_back_to_the_turn_start(app: App) -> None:
    await started(app)
    await into_turn(app)
    state, g = await game(app)
    snap_inputs = state["record"]["snapshot"]["inputs"]
    assert len(g.inputs) > snap_inputs
    await corrupt(app, desync)
    assert "存档回放与记录不一致" in await say(app, ".moe hand", user=USERS[0], group=G)
    text = await say(app, ".moe recover 继续", user=USERS[0], group=G)
    assert "已回到本回合开始时的存档继续" in text
    state, g = await game(app)
    assert len(g.inputs) == snap_inputs and g.pending is not None
    assert state["deadline"] is not None and "error" not in state


async def test_recover_end_gives_the_standings_and_frees_the_group(app: App) -> None:
    await started(app)
    await into_turn(app)
    await corrupt(app, desync)
    text = await say(app, ".moe recover 结束", user=USERS[0], group=G)
    assert text.startswith("萌E对局因存档回放与记录不一致而结束。目前结果（本回合开始时）：")
    assert "1号" in text and "血量" in text and "没有胜利者" in text
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert state["status"] == "over"
    assert await say(app, ".moe state", user=USERS[0], group=G) == "本群没有萌E游戏"
    assert "创建了" in await say(app, ".moe new", user=USERS[0], group=G)


async def test_sweeper_tells_the_broken_group_why_and_the_other_keeps_its_timeouts(app: App) -> None:
    await started(app, G, USERS)
    await started(app, G2, USERS2)
    await moe.sweep(app, app.clock.timestamp())
    await corrupt(app, changed_pack)
    later = app.clock.timestamp() + 10_000
    out = dict(await moe.sweep(app, later))
    (told,) = [r.text for r in out[G]]
    assert "卡包内容在对局开始后被修改" in told and ".moe recover" in told and "停止计时" in told
    assert "超时" in "\n".join(r.text for r in out[G2])
    assert G not in dict(await moe.sweep(app, later + 10_000))
    assert "存档完整" in await say(app, ".moe recover", user=USERS[0], group=G)
    state, _g = await game(app)
    assert state["deadline"] is not None  # the clock runs again
    assert "超时" in "\n".join(r.text for r in dict(await moe.sweep(app, state["deadline"] + 1))[G])


async def test_a_pack_file_edited_on_disk_is_noticed(app: App, tmp_path: Any) -> None:
    """The real loader path: a ``demo.yaml`` put in front of the bundled one (as the bot does
    with ``<data dir>/packs``) with one card's text changed gives the hash check a new hash."""
    from chronodice.rules.moe import pack as moe_pack

    await started(app)
    bundled = (moe_pack.PACK_DIR / "demo.yaml").read_text(encoding="utf-8")
    assert "text: 战术。获得距离1的一名其他角色的一张牌（手牌盲选）。" in bundled
    (tmp_path / "demo.yaml").write_text(
        bundled.replace("（手牌盲选）。", "（手牌盲选，改过）。", 1), encoding="utf-8"
    )
    moe_pack.PACK_DIRS.insert(0, tmp_path)
    moe_pack.load_pack.cache_clear()
    try:
        assert "卡包内容在对局开始后被修改" in await say(app, ".moe state", user=USERS[0], group=G)
        assert "存档完整" in await say(app, ".moe recover", user=USERS[0], group=G)
        assert "血量" in await say(app, ".moe state", user=USERS[0], group=G)
    finally:
        moe_pack.PACK_DIRS.remove(tmp_path)
        moe_pack.load_pack.cache_clear()


async def test_recover_restarts_the_clock_after_a_passing_error(app: App) -> None:
    await started(app)

    def stopped(st):  # type: ignore[no-untyped-def]
        return {**st, "deadline": None, "error": "StoreBusy()"}, None

    await app.store.sessions.apply_session(G, "moe", stopped)
    assert await say(app, ".moe recover", user=USERS[0], group=G) == "本群的萌E对局可以正常读取，已恢复计时"
    state, _g = await game(app)
    assert state["deadline"] is not None and "error" not in state
