"""A CoC 7th evening recorded by ``.log``, over the real WebSocket: the group plays checks, bonus
dice, ``.sc`` and a hidden check while a log runs; the bot is SIGKILLed in the middle and
restarted; ``.log end`` uploads a file holding the whole scene once, without the hidden result,
and ``.log stat`` counts the CoC checks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from onebot_client import BotProcess, OneBotClient

pytestmark = pytest.mark.e2e

KP = {"user": 10001, "role": "admin", "card": "守秘人"}
PL = {"user": 10002, "card": "艾琳"}


async def test_a_coc_scene_logged_across_a_sigkill(tmp_path: Path) -> None:
    proc = BotProcess(
        workdir=tmp_path,
        extra_env={"CHRONODICE_RNG_SEED": "7", "CHRONODICE_DATA_DIR": str(tmp_path / "data")},
    )
    proc.start()
    try:
        async with OneBotClient(proc.url) as c:
            assert "CoC7" in await c.group(".set coc7", **KP, expect=1)
            await c.group(".st 力量60敏捷50 san60 hp12 侦查70 聆听50 图书馆使用65", **PL, expect=1)
            assert "开始记录日志「图书馆」" in await c.group(".log new 图书馆", **KP, expect=1)
            await c.post("守秘人：你们来到阅览室（前）", **KP)
            await c.settled()
            first = await c.group(".ra 侦查", **PL, expect=1)
            bonus = await c.group(".rab2 图书馆使用", **PL, expect=1)
            sanity = await c.group(".sc 1/1d6", **PL, expect=1)
            hidden = await c.send(".rah 聆听", **PL, expect=2)
            secret = next(x.text for x in hidden if x.is_private).splitlines()[-1]
        proc.kill()  # mid-log, mid-scene: no shutdown hook runs
        proc.start()
        async with OneBotClient(proc.url) as c:
            await c.post("艾琳：书架后面有声音（后）", **PL)
            await c.settled()
            after = await c.group(".ra 聆听", **PL, expect=1)
            stat = await c.group(".log stat", **KP, expect=1)
            calls = await c.send(".log end", **KP, expect=5)
        uploads = [x for x in calls if x.action == "upload_group_file"]
        assert [u.params["name"] for u in uploads] == [
            f"图书馆.{e}" for e in ("txt", "html", "json", "dice.txt")
        ]
        txt = Path(uploads[0].params["file"]).read_text(encoding="utf-8")
        for line in (
            "你们来到阅览室（前）",
            first,
            bonus,
            sanity.splitlines()[0],
            "书架后面有声音（后）",
            after,
        ):
            assert txt.count(line) == 1, (line, txt)
        assert txt.index("阅览室（前）") < txt.index("书架后面有声音（后）")
        assert "进行了一次暗中检定" in txt and secret not in txt
        assert secret.split("：")[-1] not in txt  # not even the roll and its level
        for other in uploads[1:]:  # nor in the page, SealDice's JSON or the shared text
            assert secret.split("：")[-1] not in Path(other.params["file"]).read_text(encoding="utf-8")
        # four public checks by 艾琳 (.ra, .rab2, .sc, .ra), each counted with its level
        m = re.search(r"艾琳：发言\d+条，检定(\d+)次（成功(\d+)，失败(\d+)", stat)
        assert m and int(m.group(1)) == 4 and int(m.group(2)) + int(m.group(3)) == 4, stat
    finally:
        proc.stop()
