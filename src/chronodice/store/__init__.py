"""The shared store (SQLAlchemy 2.x async + Alembic): the only package that imports SQLAlchemy."""

from .database import DEFAULT_URL, Store
from .db import Claim, DuplicateEvent, StoreBusy
from .history import UndoOvertaken
from .records import (
    CharacterRecord,
    ContextView,
    GameLog,
    GroupRecord,
    LogEntry,
    LogInProgress,
    LogLine,
    UndoResult,
)
from .sessions import SessionCodec, json_codec

__all__ = [
    "DEFAULT_URL",
    "CharacterRecord",
    "Claim",
    "ContextView",
    "DuplicateEvent",
    "GameLog",
    "GroupRecord",
    "LogEntry",
    "LogInProgress",
    "LogLine",
    "SessionCodec",
    "Store",
    "StoreBusy",
    "UndoOvertaken",
    "UndoResult",
    "json_codec",
]
