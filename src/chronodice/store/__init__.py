"""The shared store (SQLAlchemy 2.x async + Alembic): the only package that imports SQLAlchemy."""

from .common import Claim, UndoOvertaken
from .database import DEFAULT_URL, DuplicateEvent, Store, StoreBusy
from .records import CharacterRecord, ContextView, GameLog, GroupRecord, LogEntry, LogLine, UndoResult
from .sessions import json_codec
from .states import SessionCodec

__all__ = [
    "DEFAULT_URL",
    "CharacterRecord",
    "Claim",
    "ContextView",
    "DuplicateEvent",
    "GameLog",
    "GroupRecord",
    "LogEntry",
    "LogLine",
    "SessionCodec",
    "Store",
    "StoreBusy",
    "UndoOvertaken",
    "UndoResult",
    "json_codec",
]
