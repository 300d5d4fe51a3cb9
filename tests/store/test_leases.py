"""The serving account's lease: taken on first use, renewed in the background while enough of it
is left (a committed write the triggering message need not wait for), renewed in line when little
is left, and refused to a second account while it is live."""

from __future__ import annotations

import asyncio
import time

from chronodice.store import Store
from chronodice.store.database import RENEW_AHEAD


async def test_the_holder_renews_in_the_background_and_others_wait(any_store: Store) -> None:
    s = any_store
    s.lease_seconds = 30.0
    assert await s.serves("g1", "111") is True
    assert await s.serves("g1", "222") is False  # a second account while the lease is live
    holder, _expires, checked = s._leases["g1"]
    # half the lease gone, more than RENEW_AHEAD left: answered at once, renewed behind it
    s._leases["g1"] = (holder, time.time() + RENEW_AHEAD + 5, checked)
    assert await s.serves("g1", "111") is True
    assert s._tasks, "a renewal runs in the background"
    await asyncio.gather(*s._tasks)
    assert s._leases["g1"][1] > time.time() + 25
    assert await s.lease_holder("g1") == "111"
    # hardly any left (or none): the renewal is awaited before answering
    s._leases["g1"] = (holder, time.time() + 1, checked)
    assert await s.serves("g1", "111") is True and not s._tasks
    assert s._leases["g1"][1] > time.time() + 25
