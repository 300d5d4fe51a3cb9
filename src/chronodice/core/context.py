"""Who said a command, and where: the platform-free view a service sees."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Role = Literal["superuser", "owner", "admin"]
"""Platform roles.  A GM appointed with ``.gm add`` is not a role here: it lives in the store
and is resolved by :mod:`chronodice.core.permissions`."""


@dataclass(frozen=True)
class Context:
    """One message's sender and place.

    ``group_id`` is ``None`` in a private chat.  ``sender_name`` is what the platform calls the
    user (group card, else QQ nickname); ``.nn`` nicknames are resolved by the services.
    ``at_ids`` lists the user ids @-mentioned in the message, in order.
    ``screen``: a GM's command typed in private chat that acts on ``group_id`` (the GM screen,
    :mod:`chronodice.services.gm_screen`): the group never saw the command, so a reply about
    something hidden goes to the GM alone.
    """

    user_id: str
    group_id: str | None = None
    sender_name: str = ""
    roles: frozenset[Role] = field(default_factory=frozenset)
    self_id: str = ""
    at_ids: tuple[str, ...] = ()
    screen: bool = False

    @property
    def is_private(self) -> bool:
        return self.group_id is None

    @property
    def scope(self) -> str:
        """Key for per-place state: the group id, or ``p<user id>`` in a private chat."""
        return self.group_id if self.group_id is not None else f"p{self.user_id}"

    @property
    def is_superuser(self) -> bool:
        return "superuser" in self.roles

    @property
    def is_group_admin(self) -> bool:
        """Group owner, group admin or superuser."""
        return bool(self.roles & {"superuser", "owner", "admin"})
