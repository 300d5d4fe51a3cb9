""".log over the real WebSocket: chatter, commands and replies recorded, a SIGKILL of the bot in
the middle and a restart, a duplicate delivery, then ``.log end`` uploads the files."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from onebot_client import SELF_ID, BotProcess, OneBotClient

pytestmark = pytest.mark.e2e

GM, PL = 10001, 10002


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_log_from_new_to_uploaded_file_across_a_sigkill(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    proc = BotProcess(
        workdir=tmp_path,
        database_url=request.getfixturevalue("own_pg_url") if backend == "postgres" else None,
        extra_env={"CHRONODICE_RNG_SEED": "20261122", "CHRONODICE_DATA_DIR": str(tmp_path / "data")},
    )
    proc.start()
    try:
        async with OneBotClient(proc.url) as c:
            assert "开始记录日志「第一夜」" in await c.group(".log new 第一夜", user=GM, card="艾拉")
            await c.post("前-闲聊-甲：今晚去图书馆", user=GM, card="艾拉", message_id=777001)
            await c.settled()
            await c.post(
                [
                    {"type": "at", "data": {"qq": str(GM)}},
                    {"type": "text", "data": {"text": " 前-闲聊-乙 看地图"}},
                    {"type": "image", "data": {"file": "abc.image", "url": "https://example.com/map.png"}},
                ],
                user=PL,
                card="布鲁",
                message_id=777002,
            )
            await c.settled()
            roll = await c.group(".r 1d20 前-掷骰", user=PL, card="布鲁")
            assert "前-掷骰" in roll
            hidden = await c.send(".rh 1d100 前-暗骰", user=GM, card="艾拉")
            secret = next(x.text for x in hidden if x.is_private)
        proc.kill()  # mid-log: no shutdown hook runs
        proc.start()
        async with OneBotClient(proc.url) as c:
            await c.post("前-闲聊-甲：今晚去图书馆", user=GM, card="艾拉", message_id=777001)  # re-sent
            await c.post("后-闲聊-丙：继续", user=PL, card="布鲁", message_id=777003)
            await c.settled()
            # a second bot account in the group gets the same message: only the serving one records
            async with OneBotClient(proc.url, self_id=654321) as other:
                await other.post("后-两个账号都收到", user=PL, card="布鲁")
                await other.settled()
            await c.post("后-两个账号都收到", user=PL, card="布鲁")
            await c.group(".st 力量14 体质12 LV4 运动熟练度1", user=GM, card="艾拉")
            check = await c.group(".rc 运动 15", user=GM, card="艾拉")
            assert "运动检定" in check
            assert "已记录" in await c.group(".log", user=PL, card="布鲁")
            await c.group(".log off", user=GM, card="艾拉")
            await c.post("后-暂停中不记", user=PL, card="布鲁")
            await c.settled()
            await c.group(".log on", user=GM, card="艾拉")
            await c.post("<script>alert(1)</script>", user=PL, card="布鲁")
            await c.settled()
            calls = await c.send(".log end", user=GM, card="艾拉", expect=5)
            assert "日志「第一夜」已结束" in calls[0].text and calls[0].to_group
            uploads = [x for x in calls if x.action == "upload_group_file"]
            names = ["第一夜.txt", "第一夜.html", "第一夜.json", "第一夜.dice.txt"]
            assert [u.params["name"] for u in uploads] == names
            assert all(u.params["group_id"] == 20002 for u in uploads)
            txt = Path(uploads[0].params["file"]).read_text(encoding="utf-8")
            page = Path(uploads[1].params["file"]).read_text(encoding="utf-8")
            assert Path(uploads[0].params["file"]).parent == tmp_path / "data" / "exports" / "logs"
            for needle in (
                "前-闲聊-甲：今晚去图书馆",
                "前-闲聊-乙 看地图",
                ".r 1d20 前-掷骰",
                "后-闲聊-丙：继续",
            ):
                assert txt.count(needle) == 1, (needle, txt)
            assert txt.count(roll.splitlines()[0]) == 1  # the bot's reply
            assert "@艾拉 前-闲聊-乙 看地图[图片 https://example.com/map.png]" in txt
            assert "艾拉(10001)" in txt and "布鲁(10002)" in txt and f"({SELF_ID})" in txt
            assert "后-暂停中不记" not in txt and secret not in txt  # paused; hidden stays hidden
            assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
            assert txt.index("前-闲聊-甲") < txt.index("前-掷骰") < txt.index("后-闲聊-丙")
            stat = await c.group(".log stat", user=PL, card="布鲁")
            assert "艾拉：发言" in stat and "检定1次" in stat
            # NapCat in another container cannot read the path: the same file again as base64
            c.fail_path_uploads = True
            calls = await c.send(".log get", user=GM, card="艾拉")
            sent = [x for x in calls if x.action == "upload_group_file"]
            assert [x.params["name"] for x in sent] == [n for n in names for _ in (1, 2)]
            for by_path, by_data in zip(sent[::2], sent[1::2], strict=True):
                data = by_data.params["file"]
                assert data.startswith("base64://")
                assert (
                    base64.b64decode(data.removeprefix("base64://"))
                    == Path(by_path.params["file"]).read_bytes()
                )
            assert not any(x.action == "upload_private_file" for x in calls)
            c.fail_path_uploads = False
            # fallbacks: the group upload fails → a private file to the GM; both fail → where it lies
            c.fail_actions.add("upload_group_file")
            calls = await c.send(".log get", user=GM, card="艾拉")
            private = [x for x in calls if x.action == "upload_private_file"]
            assert len(private) == 4 and all(x.params["user_id"] == GM for x in private)
            assert any("已把「第一夜.txt」私聊发给你" in x.text for x in calls if x.to_group)
            c.fail_actions.add("upload_private_file")
            calls = await c.send(".log get 第一夜", user=GM, card="艾拉")
            notes = [x.text for x in calls if x.to_group and "无法上传" in x.text]
            assert len(notes) == 4 and str(tmp_path / "data" / "exports" / "logs") in notes[0]
    finally:
        proc.stop()
