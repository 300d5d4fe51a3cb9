"""Command prefixes from the host bot (issue 41): ``COMMAND_START`` or ``CHRONODICE_COMMAND_START``."""

from __future__ import annotations

from chronodice.core.commands import PREFIXES, REGISTRY


def test_configured_prefixes_route_longest_first_and_never_an_empty_one() -> None:
    before = REGISTRY.prefixes
    try:
        REGISTRY.set_prefixes(["!", "!!", "", " "])
        assert REGISTRY.prefixes == ("!!", "!")
        routed = REGISTRY.route("!!r 1d6")
        assert routed is not None and routed.spec.name == "r" and routed.args == "1d6"
        assert REGISTRY.route("! st 力量60") is not None
        assert REGISTRY.route(".r 1d6") is None  # not a prefix here
        assert REGISTRY.route("r 1d6") is None
        assert REGISTRY.get("!!help") is REGISTRY.get("help")
        # the bot's own rewrites (萌E's bare numbers in private) still read
        rewritten = REGISTRY.route_private("1")
        assert rewritten is not None and (rewritten.spec.name, rewritten.args, rewritten.bare) == (
            "moe",
            "答 1",
            True,
        )
        REGISTRY.set_prefixes([""])
        assert REGISTRY.prefixes == PREFIXES  # nothing usable: the defaults
    finally:
        REGISTRY.prefixes = before
    assert REGISTRY.route("。r 1d6") is not None
