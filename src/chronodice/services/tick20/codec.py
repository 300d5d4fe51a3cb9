"""How the store keeps a D20 combat: :class:`CombatCodec` (the rules' :class:`Combat` in, its
stored JSON text out, and back), beside the service that reads and writes combats."""

from __future__ import annotations

from typing import Any

from chronodice.rules.tick20.model import SCHEMA_VERSION, Combat


class CombatCodec:
    """How the store keeps a combat (a :class:`chronodice.store.SessionCodec`).  Combats are
    mutable models (the engine changes a fresh parse in place, see ``Combat.give_away``), so each
    use is decoded afresh, straight from the stored text by pydantic's JSON parser."""

    system = "tick20"
    immutable = False
    row_fields: tuple[str, ...] = ()
    """The log is capped (it slides), so the combat is stored whole."""

    def decode(self, text: str) -> Combat:
        state = Combat.model_validate_json(text)
        if state.schema_version != SCHEMA_VERSION:
            raise ValueError(f"unsupported tick20 schema_version {state.schema_version}")
        return state

    def encode(self, state: Combat, prev: tuple[Combat, Any] | None) -> dict[str, Any]:
        """``state`` as plain JSON: the model's fields without their defaults, the log last."""
        out = state.model_dump(mode="json", exclude_defaults=True, exclude={"log"})
        if state.log:
            out["log"] = [e.model_dump(mode="json", exclude_defaults=True) for e in state.log]
        return out | {"schema_version": state.schema_version}


COMBAT_CODEC = CombatCodec()


__all__ = ["COMBAT_CODEC", "CombatCodec"]
