"""A command reads its group and the sender's card from the view the chat edge read
(:mod:`chronodice.services.views`), and a settings write keeps that view current."""

from __future__ import annotations

from dataclasses import replace

from helpers import make_ctx, run

from chronodice.app import App
from chronodice.core.commands import Call
from chronodice.services.card_access import as_member
from chronodice.services.views import group_of, own_card, update_settings


async def _call(app: App, user: str = "10001", group: str | None = "20002", roles: tuple = ()) -> Call:  # type: ignore[type-arg]
    ctx = make_ctx(user, group, roles=roles)  # type: ignore[arg-type]
    return Call(ctx=ctx, args="", app=app, view=await app.context_view(ctx))


async def test_the_group_and_card_come_from_the_view(app: App) -> None:
    await run(app, ".st 力量60")
    call = await _call(app)
    # the store changes after the view was read: the command still sees its snapshot
    await app.store.groups.update_group_settings("20002", lambda s: {**s, "mark": 1})
    assert "mark" not in (await group_of(call)).settings
    assert (await own_card(call)).attributes == {"力量": 60}  # type: ignore[union-attr]
    # without a view (a tool, a test): read now
    bare = replace(call, view=None)
    assert (await group_of(bare)).settings["mark"] == 1
    assert (await own_card(bare)).attributes == {"力量": 60}  # type: ignore[union-attr]


async def test_a_settings_write_keeps_the_view_current(app: App) -> None:
    call = await _call(app)
    before = (await group_of(call)).version
    new = await update_settings(call, lambda s: {**s, "tl": {"open": True}})
    assert new == {"tl": {"open": True}}
    seen = await group_of(call)
    assert (seen.settings, seen.version) == (new, before + 1)
    stored = await app.store.groups.get_group("20002")
    assert (stored.settings, stored.version) == (seen.settings, seen.version)


async def test_acting_as_another_member_reads_that_members_card(app: App) -> None:
    await run(app, ".st 力量60")
    await run(app, ".st 力量30", user="10002")
    gm = await _call(app, roles=("owner",))
    gm.ctx = replace(gm.ctx, at_ids=("10002",))
    other = await as_member(gm, "10002")
    assert other.view is None
    assert (await own_card(other)).attributes == {"力量": 30}  # type: ignore[union-attr]
    assert (await own_card(gm)).attributes == {"力量": 60}  # type: ignore[union-attr]


async def test_private_chat_reads_its_scope(app: App) -> None:
    await run(app, ".st 力量50", group=None)
    call = await _call(app, group=None)
    assert call.view.group is None
    assert (await own_card(call)).attributes == {"力量": 50}  # type: ignore[union-attr]
    assert (await group_of(call)).group_id == call.ctx.scope
