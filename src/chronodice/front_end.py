"""What a front end (the NoneBot plugin) asks of the application besides ``dispatch``.

The plugin talks to one object, the :class:`~chronodice.app.App` (issue 24: it used to call 18
kinds of store methods itself and import the store).  These are the App's methods for the chat
edge: opening and closing the store, which bot account serves a group, events delivered twice,
whether a group's ``.log`` records, and upkeep.  Each is the store's own operation under a name
that says what the edge wants to know.
"""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .services.gamelog import log as log_command
from .services.gamelog import recorder
from .store import Claim, ContextView, LogInProgress, Store
from .store.url import DatabaseURLError, display_database_url, normalize_database_url

if TYPE_CHECKING:
    from .core.commands import Routed
    from .core.context import Context
    from .core.limits import LogLimits

__all__ = [
    "ContextView",
    "DatabaseURLError",
    "FrontEnd",
    "LogInProgress",
    "display_database_url",
    "normalize_database_url",
    "open_store",
]


async def open_store(database_url: str, *, lease_seconds: float) -> Store:
    """The store at ``database_url``, migrated to the current schema; closed again (and the
    error raised) when it cannot be opened or migrated."""
    store = Store(database_url, lease_seconds=lease_seconds)
    try:
        await store.migrate()
    except BaseException:
        await store.close()
        raise
    return store


class FrontEnd:
    """The chat edge's questions, answered from :attr:`store` (mixed into ``App``)."""

    store: Store
    log_limits: LogLimits

    # ------------------------------------------------------------------ serving account
    async def serves(self, scope: str, self_id: str) -> bool:
        """Whether bot account ``self_id`` answers in ``scope`` (several accounts in one group:
        one serves it; cached, so an ignored message costs no database round trip)."""
        return await self.store.leases.serves(scope, self_id)

    async def serving_account(self, scope: str) -> str | None:
        """The account serving ``scope`` now, if any holds it."""
        return await self.store.leases.lease_holder(scope)

    async def account_connected(self, self_id: str) -> None:
        """``self_id`` connected to this process: its groups stay its own while it lives."""
        await self.store.leases.hold_account(self_id)

    async def account_gone(self, self_id: str) -> None:
        """``self_id`` disconnected: another account may serve its groups at once."""
        await self.store.leases.release(self_id)

    # ------------------------------------------------------------------ exactly once
    def first_delivery(self, self_id: str, message_id: str) -> bool:
        """False when this process already saw the event (no database access)."""
        return self.store.first_delivery(self_id, message_id)

    @staticmethod
    def delivery(self_id: str, message_id: str) -> Claim:
        """The claim of one delivered event, for :meth:`dispatch` to hand to the command's
        writes: the first of them claims it, so a second delivery (after a reconnect, in another
        process, after a restart) writes nothing."""
        return Claim(str(self_id), str(message_id))

    # ------------------------------------------------------------------ .log
    async def active_log(self, group_id: str) -> LogInProgress | None:
        """The log in progress in ``group_id`` (recording or paused), or None."""
        return await recorder.in_progress(self.store, group_id)

    async def record_log_line(
        self,
        group_id: str,
        *,
        user_id: str,
        nickname: str,
        parts: list[list[str]],
        when: datetime,
        self_id: str = "",
        message_id: str | None = None,
        is_bot: bool = False,
        check: dict[str, Any] | None = None,
        log: LogInProgress | None = recorder.UNREAD,
    ) -> str | None:
        """Record one group message in the group's log if it is recording; a notice for the
        group when this message filled the log (see :func:`recorder.record`; ``log``: the log
        in progress as :meth:`context_view` read it, else it is read)."""
        return await recorder.record(
            self.store,
            self.log_limits,
            group_id,
            user_id=user_id,
            nickname=nickname,
            parts=parts,
            when=when,
            self_id=self_id,
            message_id=message_id,
            is_bot=is_bot,
            check=check,
            log=log,
        )

    async def context_view(self, ctx: Context) -> ContextView:
        """What a command reads before it runs, in one statement: the group, its GMs and log in
        progress, the sender's nickname and card (the edge reads it once, records the message
        in the log with it, and hands it to :meth:`dispatch`)."""
        return await self.store.groups.view(ctx.user_id, ctx.scope, ctx.group_id)

    async def group_view(self, group_id: str) -> ContextView:
        """The group's part of :meth:`context_view` (the group, its GMs and log in progress), in
        one statement: what a group message no command reads needs (its ``.log`` line, the
        keyword replies)."""
        return await self.store.groups.view(None, group_id, group_id)

    @staticmethod
    def replies_view(routed: Routed | None, view: ContextView | None) -> ContextView | None:
        """The view a command's replies are recorded with (the log in progress, the sender's
        nickname): the command's own, unless the command is ``.log``, which may have started,
        paused or ended the log (None: read again)."""
        if routed is None or routed.spec.name == log_command.name:
            return None
        return view

    async def nickname(self, user_id: str, scope: str | None) -> str | None:
        """The ``.nn`` nickname ``user_id`` set for ``scope`` (or everywhere), if any."""
        return await self.store.groups.get_nickname(user_id, scope)

    # ------------------------------------------------------------------ upkeep
    async def prune(self) -> dict[str, int]:
        """Delete old event claims, lapsed leases and the log of long-ended sessions."""
        return await self.store.housekeeping.prune()

    async def close(self, accounts: list[str] | tuple[str, ...] = ()) -> None:
        """Let go of ``accounts`` (their groups go to other processes at once) and close the
        store; a failed release does not keep the store open."""
        for self_id in accounts:
            with contextlib.suppress(Exception):
                await self.store.leases.release(self_id)
        await self.store.close()
