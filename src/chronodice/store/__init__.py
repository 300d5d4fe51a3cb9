"""The shared store (SQLAlchemy 2.x async + Alembic): the only package that imports SQLAlchemy."""

from .database import DEFAULT_URL, DuplicateEvent, Store, StoreBusy
from .records import CharacterRecord, ContextView, GroupRecord, LogEntry, UndoResult

__all__ = [
    "DEFAULT_URL",
    "CharacterRecord",
    "ContextView",
    "DuplicateEvent",
    "GroupRecord",
    "LogEntry",
    "Store",
    "StoreBusy",
    "UndoResult",
]
