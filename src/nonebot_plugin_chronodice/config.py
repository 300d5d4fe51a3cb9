"""The plugin's settings (``CHRONODICE_*``) and the facts every sub-plugin's metadata shares.

NoneBot reads ``Config`` from its own configuration (``.env``, ``.env.{ENVIRONMENT}`` and the
environment, case-insensitive), as for any plugin; ``chronodice_core.load_settings`` lets the
process environment win over ``.env`` for the data directory and the database URL.  The class is
the ``config`` of the top plugin's ``PluginMetadata``, so NoneBot's plugin store and ``nb``
show these settings.
"""

from __future__ import annotations

from nonebot.plugin import PluginMetadata
from pydantic import BaseModel

from chronodice.core.limits import LogLimits
from chronodice.core.ratelimit import FloodSettings

HOMEPAGE = "https://github.com/chronodice/chronodice"
"""Where the project lives (``PluginMetadata.homepage``; pyproject's ``[project.urls]``)."""

SUPPORTED_ADAPTERS = frozenset({"~onebot.v11", "~console"})
"""OneBot v11 (NapCat, Lagrange, LLOneBot) and NoneBot's terminal chat; any other adapter's
events are ignored (``bridge.build_context``)."""


class Config(BaseModel):
    """``CHRONODICE_*`` settings; each is documented in ``.env.example``."""

    chronodice_database_url: str | None = None
    """Default: SQLite ``chronodice.db`` in the data directory."""
    chronodice_data_dir: str | None = None
    """Default: the standalone bot's ``data/`` (``bot.py`` sets it); inside another bot,
    nonebot-plugin-localstore's folder for this plugin."""
    chronodice_rng_seed: int | None = None
    """Testing only: a fixed seed makes rolls repeatable.  Never set it in production."""
    chronodice_console: bool = False
    chronodice_lease_seconds: float = 30.0
    """How long a bot account keeps serving a group after its last message there (several
    accounts in one group: another takes over after this when it goes away without closing)."""
    chronodice_prune_seconds: float = 600.0
    chronodice_moe_sweep_seconds: float = 2.0
    """How often 萌E's sweeper applies timeouts and delivers group texts of private commands."""
    chronodice_clock_shift_file: str | None = None
    """Testing only: the bot's clock runs ahead of the real time by the seconds written in this
    file (:class:`chronodice.core.clock.ShiftedClock`), so an end-to-end test makes a deadline
    pass instead of waiting for it.  Never set it in production."""
    chronodice_flood_enabled: bool = True
    chronodice_flood_user_burst: float = FloodSettings.user_burst
    chronodice_flood_user_rate: float = FloodSettings.user_rate
    chronodice_flood_gm_burst: float = FloodSettings.gm_burst
    chronodice_flood_gm_rate: float = FloodSettings.gm_rate
    chronodice_flood_group_burst: float = FloodSettings.group_burst
    chronodice_flood_group_rate: float = FloodSettings.group_rate
    chronodice_log_max_lines: int = LogLimits.max_lines
    chronodice_log_max_logs: int = LogLimits.max_logs
    chronodice_log_max_export_bytes: int = LogLimits.max_export_bytes
    chronodice_log_max_line_chars: int = LogLimits.max_line_chars
    chronodice_log_utc_offset_hours: float = LogLimits.utc_offset_hours
    chronodice_trusted_proxies: str = ""
    """Reverse proxies (IP addresses or networks, comma-separated) whose ``X-Forwarded-For`` the
    standalone bot reads as the client's address; none by default."""
    chronodice_header_seconds: float = 10.0
    """Seconds a connection to the standalone bot has to send a request's headers."""
    chronodice_priority: int = 10
    """The message matcher's NoneBot priority (lower runs first), for a bot with other plugins."""
    chronodice_block: bool = True
    """Whether a message ChronoDice answered goes on to lower-priority plugins (one it does not
    answer always does)."""
    chronodice_command_start: list[str] | None = None
    """What starts a command.  Default: ``.`` ``。`` ``．`` and the host bot's ``COMMAND_START``
    (NoneBot's, ``/`` unless set; an empty start is never used: a message without one is
    never a ChronoDice command)."""

    def command_starts(self, host: object) -> list[str]:
        """The command prefixes: :attr:`chronodice_command_start`, else ours and ``host``'s
        ``COMMAND_START`` (a set of strings).

        >>> Config().command_starts({"/", ""})
        ['.', '。', '．', '/']
        >>> Config(chronodice_command_start=["!"]).command_starts({"/"})
        ['!']
        """
        if self.chronodice_command_start is not None:
            return list(self.chronodice_command_start)
        extra = (
            sorted(str(p) for p in host if str(p)) if isinstance(host, set | frozenset | list | tuple) else []
        )
        return [".", "。", "．", *[p for p in extra if p not in (".", "。", "．")]]

    def log_limits(self) -> LogLimits:
        """``.log`` limits (``CHRONODICE_LOG_*``; see ``.env.example``)."""
        return LogLimits(
            max_lines=self.chronodice_log_max_lines,
            max_logs=self.chronodice_log_max_logs,
            max_export_bytes=self.chronodice_log_max_export_bytes,
            max_line_chars=self.chronodice_log_max_line_chars,
            utc_offset_hours=self.chronodice_log_utc_offset_hours,
        )

    def flood(self) -> FloodSettings:
        """Flood-control settings (``CHRONODICE_FLOOD_*``; see ``.env.example``)."""
        prefix = "chronodice_flood_"
        return FloodSettings.from_mapping(
            {k.removeprefix(prefix): v for k, v in self.model_dump().items() if k.startswith(prefix)}
        )


def plugin_meta(name: str, description: str, usage: str, **extra: object) -> PluginMetadata:
    """The metadata every ChronoDice plugin shares (type, homepage, adapters) with its own words."""
    return PluginMetadata(
        name=name,
        description=description,
        usage=usage,
        type="application",
        homepage=HOMEPAGE,
        supported_adapters=set(SUPPORTED_ADAPTERS),
        **extra,  # type: ignore[arg-type]
    )
