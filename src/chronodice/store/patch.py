"""Compact JSON patches: what the session log stores instead of whole states.

``diff(a, b)`` returns a patch that turns ``a`` into ``b`` (``None`` when they are equal), and
``apply(patch, a)`` performs it.  The log keeps the *reverse* patch of each command (after →
before), so ``.undo`` is ``apply(patch, current)`` and a patch costs space in proportion to what
the command changed, not to the size of the state.

Format (JSON, so it lives in a JSON column):

* ``["=", value]`` — replace by ``value``;
* ``{"d": {key: patch}, "x": [keys to drop], "k": [key order]}`` — a dict edited in place
  (``x``/``k`` only when keys are dropped or the order changes, so that the result serialises
  to exactly the same text);
* ``{"i": {"index": patch}}`` — a list of the same length, some items edited;
* ``{"l": n, "p": prefix, "s": suffix, "m": [items]}`` — a list whose length changed: keep the
  first ``p`` and last ``s`` items, put ``m`` between them;
* ``{"l": n, "w": [start, stop], "b": [items], "a": [items]}`` — a window that slid (a capped
  log: new entries at the end, the oldest dropped): ``b`` + the items ``start:stop`` + ``a``.

Sub-values that compare equal (``==``) are skipped without a look at their types, which keeps
``diff`` at C speed on big states; :func:`exact_diff` checks the result against the JSON text
and tells when ``1`` became ``1.0`` somewhere (the caller then stores the whole value).

>>> a = {"hp": 10, "log": ["a", "b"], "foe": {"n": 1}}
>>> b = {"hp": 10.0, "log": ["a", "b", "c"], "foe": {"n": 2}}
>>> p = diff(a, b)
>>> apply(p, json.loads(json.dumps(a))) == b and type(apply(p, dict(a))["hp"]) is float
True
>>> exact_diff({"x": [1]}, {"x": [1.0]}, '{"x":[1]}', '{"x":[1.0]}')
['=', {'x': [1.0]}]
>>> diff(b, b) is None
True
"""

from __future__ import annotations

import json
import operator
from typing import Any

from chronodice.core.plain import same_prefix

Patch = Any


_SEQ = (list, tuple)
_CONTAINERS = (dict, list, tuple)


def diff(a: Any, b: Any) -> Patch | None:
    """A patch turning ``a`` into ``b``; ``None`` when they are the same.  Sub-values that
    compare equal are skipped without a look at the types inside (see :func:`exact_diff`)."""
    return _diff(a, b, [])


def diff_exact(a: Any, b: Any) -> Patch | None:
    """``diff(a, b)`` that never skips a sub-value hiding ``1`` against ``1.0``: equal
    containers are skipped when they are the *same object* in both (states that share their
    unchanged parts, see :class:`chronodice.store.states.SessionCodec`) or after a walk that
    compares their leaves' types.  No check against the texts is needed afterwards.  Tuples
    (and their subclasses) count as lists: they serialise alike."""
    return _diff(a, b, None)


_WALK = 16
"""Containers longer than this are compared by their JSON texts (the C encoder) rather than by a
walk in Python: for equal values, equal texts mean the same types, key order and signs."""


def _same_types(x: Any, y: Any) -> bool:
    """For ``x == y``: whether every leaf also has the same type (shared parts not walked)."""
    if x is y:
        return True
    tx, ty = type(x), type(y)
    if tx is dict:
        if ty is not dict or list(x) != list(y):
            return False
        if all(map(operator.is_, x.values(), y.values())):  # shared parts (C speed)
            return True
        if len(x) > _WALK:
            return dumps(x) == dumps(y)
        return all(_same_types(v, y[k]) for k, v in x.items())
    if isinstance(x, _SEQ):
        if not isinstance(y, _SEQ):
            return False
        if all(map(operator.is_, x, y)):  # shared items (C speed; x == y: same length)
            return True
        if len(x) > _WALK:
            return dumps(x) == dumps(y)
        return all(_same_types(v, w) for v, w in zip(x, y, strict=True))
    return tx is ty and not (tx is float and x == 0.0 and str(x) != str(y))  # 0.0 against -0.0


def _same(x: Any, y: Any, lax: list[bool] | None) -> bool:
    if x is y:
        return True
    tx = type(x)
    if tx is not type(y) or x != y:
        return False
    if lax is None:
        return _same_types(x, y)
    if isinstance(x, _CONTAINERS):
        lax.append(True)
    return True


def _diff(a: Any, b: Any, lax: list[bool] | None) -> Patch | None:
    """The patch from ``a`` to ``b`` (``None``: nothing changed): dicts key by key, sequences
    item by item or by window, anything else replaced whole."""
    ta, tb = type(a), type(b)
    if ta is dict and tb is dict:
        return _diff_dict(a, b, lax)
    if isinstance(a, _SEQ) and isinstance(b, _SEQ):
        return _diff_items(a, b, lax) if len(a) == len(b) else _diff_ends(a, b, lax)
    if ta is tb and a == b and not isinstance(a, _CONTAINERS) and (lax is not None or _same_types(a, b)):
        return None
    return ["=", b]


def _diff_dict(a: dict, b: dict, lax: list[bool] | None) -> Patch | None:
    """A dict's patch: changed keys (``d``), dropped keys (``x``), and the new key order (``k``)
    when it changed."""
    sub: dict[str, Patch] = {}
    for k, bv in b.items():
        if k in a:
            av = a[k]
            if _same(av, bv, lax):
                continue
            p = _diff(av, bv, lax)
            if p is not None:
                sub[k] = p
        else:
            sub[k] = ["=", bv]
    dropped = [k for k in a if k not in b]
    order = [k for k in a if k in b] + [k for k in b if k not in a]
    same_order = order == list(b)
    if not sub and not dropped and same_order:
        return None
    patch: dict[str, Any] = {"d": sub}
    if dropped:
        patch["x"] = dropped
    if not same_order:
        patch["k"] = list(b)
    return patch


def _diff_items(a: Any, b: Any, lax: list[bool] | None) -> Patch | None:
    """Two sequences of one length: item patches (``i``), or a window or the whole when too
    many items changed."""
    na = len(a)
    shared = list(map(operator.is_, a, b))  # shared items skipped at C speed
    changed = [i for i in range(na) if not shared[i] and not _same(a[i], b[i], lax)]
    if len(changed) > max(4, na // 4):
        # reordered or rewritten: item patches would cost more than they save
        return _window(a, b, lax, 0) or ["=", b]
    items: dict[str, Patch] = {}
    for i in changed:
        p = _diff(a[i], b[i], lax)
        if p is not None:
            items[str(i)] = p
    return {"i": items} if items else None


def _diff_ends(a: Any, b: Any, lax: list[bool] | None) -> Patch | None:
    """Two sequences of different lengths: a window, else the middle between the shared
    prefix and suffix."""
    na, nb = len(a), len(b)
    limit = min(na, nb)
    pre = same_prefix(a, b)  # shared items skipped at C speed (a list grown at its end)
    while pre < limit and _same(a[pre], b[pre], lax):
        pre += 1
    suf = 0
    while suf < limit - pre and _same(a[na - 1 - suf], b[nb - 1 - suf], lax):
        suf += 1
    return _window(a, b, lax, pre + suf) or {"l": nb, "p": pre, "s": suf, "m": b[pre : nb - suf]}


_WINDOW_SHIFTS = 64
"""How far a window may have slid for :func:`_window` to find it (a capped log gains a few
entries per command)."""


def _window(a: Any, b: Any, lax: list[bool] | None, kept: int) -> Patch | None:
    """The window op when ``b`` is ``a`` slid by up to :data:`_WINDOW_SHIFTS` items (new items at
    one end, old ones dropped at the other) and keeps more than ``kept`` items of ``a``."""
    na, nb = len(a), len(b)
    if kept >= min(na, nb):
        return None
    # slid left: b = a[o:o+k] + new items
    for o in range(1, min(na, _WINDOW_SHIFTS + 1)):
        k = min(na - o, nb)
        if k > kept and a[o] == b[0] and _same(list(a[o : o + k]), list(b[:k]), lax):
            return {"l": nb, "w": [o, o + k], "b": [], "a": b[k:]}
    # slid right: b = new items + a[:k]
    for o in range(1, min(nb, _WINDOW_SHIFTS + 1)):
        k = min(nb - o, na)
        if k > kept and a[0] == b[o] and _same(list(a[:k]), list(b[o : o + k]), lax):
            return {"l": nb, "w": [0, k], "b": b[:o], "a": b[o + k :]}
    return None


def exact_diff(a: Any, b: Any, a_text: str, b_text: str) -> Patch | None:
    """``diff(a, b)`` checked to rebuild exactly ``b_text`` from ``a_text`` (both :func:`dumps`
    of the values); where it would not (a number changed type inside an equal sub-value), the
    patch replaces the whole value."""
    p = diff(a, b)
    if p is None:
        return None if a_text == b_text else ["=", b]
    if isinstance(p, list) or dumps(apply(p, json.loads(a_text))) == b_text:
        return p
    return ["=", b]


def apply(patch: Patch | None, a: Any) -> Any:
    """Apply ``patch`` to ``a`` (edited in place where possible) and return the result."""
    if patch is None:
        return a
    if isinstance(patch, list):
        return patch[1]
    if "d" in patch:
        if type(a) is not dict:
            raise ValueError("patch expects an object")
        for k in patch.get("x", ()):
            del a[k]
        for k, p in patch["d"].items():
            a[k] = apply(p, a[k]) if k in a else _value(p)
        if "k" in patch:
            a = {k: a[k] for k in patch["k"]}
        return a
    if "i" in patch:
        if type(a) is not list:
            raise ValueError("patch expects a list")
        for i, p in patch["i"].items():
            a[int(i)] = apply(p, a[int(i)])
        return a
    if type(a) is not list:
        raise ValueError("patch expects a list")
    if "w" in patch:
        start, stop = patch["w"]
        if not 0 <= start <= stop <= len(a):
            raise ValueError("patch does not fit the list")
        result = list(patch["b"]) + a[start:stop] + list(patch["a"])
        if len(result) != patch["l"]:
            raise ValueError("patch does not fit the list")
        return result
    pre, suf = patch["p"], patch["s"]
    if pre + suf > len(a):
        raise ValueError("patch does not fit the list")
    result = a[:pre] + list(patch["m"]) + (a[len(a) - suf :] if suf else [])
    if len(result) != patch["l"]:
        raise ValueError("patch does not fit the list")
    return result


def _value(p: Patch) -> Any:
    if isinstance(p, list):
        return p[1]
    raise ValueError("patch edits a key that is missing")


def dumps(value: Any) -> str:
    """Compact JSON text (UTF-8 kept as is): the form states and patches are stored in."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def reverse(old: Any, new: Any, old_text: str | None = None) -> tuple[str | None, str | None]:
    """What a log row keeps to get ``old`` back from ``new`` (both plain JSON data):
    ``(before, patch)`` texts, a reverse patch where it is shorter than the whole old state and
    rebuilds it exactly, else the whole old state.  ``new`` is consumed (patched in place)."""
    if old is None:
        return None, dumps(["=", None])
    canonical = old_text if old_text is not None else dumps(old)
    if new is None:
        return canonical, None
    p = diff(new, old)
    if p is None:
        return canonical, None
    p_text = dumps(p)
    if len(p_text) >= len(canonical) or dumps(apply(p, new)) != canonical:
        return canonical, None
    return None, p_text
