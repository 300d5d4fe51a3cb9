"""The ``.log`` exports other dice bots read: a CoC scene (``.ra``, ``.sc``, a hidden ``.rah``)
recorded as the plugin records it, exported by ``.log end``, and read back from SealDice's log
JSON and from the text SealDice, Dice! and OlivaDice share."""

from __future__ import annotations

import json
import random
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

from helpers import run

from chronodice.app import App
from chronodice.core.limits import LogLimits
from chronodice.core.ratelimit import FloodSettings
from chronodice.datadir import DataDir
from chronodice.services.gamelog import recorder
from chronodice.services.gamelog.export import ExportHead
from chronodice.services.gamelog.formats import dice_txt_pieces, sealdice_pieces
from chronodice.services.gamelog.split import split_export
from chronodice.store import LogLine, Store

G, BOT = "20002", "123456"
T0 = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
KEYS = {
    "nickname": str,
    "IMUserId": str,
    "time": int,
    "message": str,
    "isDice": bool,
    "commandId": int,
    "commandInfo": (dict, type(None)),
    "rawMsgId": (str, int),
    "uniformId": str,
    "channel": str,
}
HEADER = re.compile(r"^(.+)\((\d+)\) (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)$")


class Scene:
    """Records a group's messages the way the plugin does: the player's line, then each public
    reply of the bot with its check note; private replies are never recorded."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.clock = T0
        self.mid = 0

    async def line(
        self, text: str, *, user: str, name: str, is_bot: bool = False, check: object = None
    ) -> None:
        self.clock += timedelta(seconds=7)
        self.mid += 1
        await recorder.record(
            self.app.store,
            self.app.log_limits,
            G,
            user_id=user,
            nickname=name,
            parts=[["text", text]],
            when=self.clock,
            self_id=BOT,
            message_id=f"m{self.mid}",
            is_bot=is_bot,
            check=check,  # type: ignore[arg-type]
        )

    async def say(self, text: str, user: str = "10001", name: str = "艾拉") -> list[str]:
        """A player's message and the bot's answers; returns the private texts (hidden results)."""
        await self.line(text, user=user, name=name)
        secrets = []
        for reply in await run(self.app, text, user=user, name=name):
            if reply.private:
                secrets.append(reply.text)
                continue
            check = None
            if reply.check is not None:
                check = recorder.check_dict(reply.check, user, name)
            await self.line(reply.text, user=BOT, name="骰娘", is_bot=True, check=check)
        return secrets


async def coc_scene(store: Store, tmp_path: Path) -> tuple[App, list[str], list[str], str]:
    app = App(
        store,
        random.Random(7),
        flood=FloodSettings(enabled=False),
        data_dir=DataDir(tmp_path / "data"),
        log_limits=LogLimits(utc_offset_hours=8.0),
    )
    await run(app, ".st 侦查60 图书馆使用70 聆听50 理智55 意志55", name="艾拉")
    await run(app, ".log new 图书馆", user="10002", name="KP")
    scene = Scene(app)
    await scene.line("你们来到阅览室", user="10002", name="KP")
    await scene.say(".ra 侦查")
    await scene.say(".ra 2#图书馆使用")
    await scene.say(".sc 1/1d6")
    secrets = await scene.say(".rah 聆听")
    await scene.line("书架后面有声音", user="10002", name="KP")
    [end] = await run(app, ".log end", user="10002", name="KP")
    names = [f.name for f in end.files]
    paths = {f.name: f.path for f in end.files}
    assert names == ["图书馆.txt", "图书馆.html", "图书馆.json", "图书馆.dice.txt"]
    assert "海豹日志格式" in end.text
    secret = secrets[0].split("：")[-1]
    assert secret.startswith("D100=")
    return app, names, [paths["图书馆.json"], paths["图书馆.dice.txt"]], secret


def check_item(item: dict[str, object]) -> None:
    assert set(item) == set(KEYS), item
    for key, kind in KEYS.items():
        assert isinstance(item[key], kind), (key, item[key])
    assert item["uniformId"] == f"QQ:{item['IMUserId']}" and str(item["IMUserId"]).isdigit()


async def test_sealdice_json_round_trip(store: Store, tmp_path: Path) -> None:
    _, _, (json_path, _), secret = await coc_scene(store, tmp_path)
    raw = Path(json_path).read_text(encoding="utf-8")
    assert secret not in raw
    doc = json.loads(raw)
    assert set(doc) == {"version", "items"} and doc["version"] == 101
    items = doc["items"]
    for item in items:
        check_item(item)
    assert items[0]["message"] == "你们来到阅览室"
    assert all(i["channel"] == G for i in items)
    assert items[0]["time"] == int((T0 + timedelta(seconds=7)).timestamp())
    bots = [i for i in items if i["isDice"]]
    assert all(i["IMUserId"] == str(BOT) for i in bots)
    # every command and the bot's reply share one commandId; chatter has 0
    by_cmd = {i["commandId"]: i for i in items if not i["isDice"] and i["commandId"]}
    assert [i["message"] for i in by_cmd.values()] == [
        ".ra 侦查",
        ".ra 2#图书馆使用",
        ".sc 1/1d6",
        ".rah 聆听",
    ]
    assert all(i["commandId"] in by_cmd for i in bots)
    assert items[0]["commandId"] == 0 and items[-1]["commandId"] == 0
    infos = [i["commandInfo"] for i in bots if i["commandInfo"]]
    assert len(infos) == 3  # .ra, .ra 2#, .sc — the hidden roll has none
    ra, twice, sc = infos
    m = re.search(r"D100=(\d+)/60 (\S+)", next(i["message"] for i in bots if "侦查检定" in i["message"]))
    assert m is not None
    assert ra["cmd"] == "ra" and ra["rule"] == "coc7" and ra["pcName"] == "艾拉"
    [item] = ra["items"]
    assert item["expr1"] == "d100" and item["expr2"] == "侦查" and item["attrVal"] == 60
    assert item["checkVal"] == int(m.group(1))
    ranks = {"大失败": -2, "失败": -1, "成功": 1, "困难成功": 2, "极难成功": 3, "大成功": 4}
    assert item["rank"] == ranks[m.group(2)]
    assert len(twice["items"]) == 2 and all(x["attrVal"] == 70 for x in twice["items"])
    assert sc["cmd"] == "sc" and sc["items"][0]["exprs"] == ["d100", "1", "1d6"]
    assert sc["items"][0]["sanOld"] == 55 and sc["items"][0]["sanNew"] < 55


async def test_shared_text_round_trip(store: Store, tmp_path: Path) -> None:
    _, _, (json_path, txt_path), secret = await coc_scene(store, tmp_path)
    text = Path(txt_path).read_text(encoding="utf-8")
    assert secret not in text
    assert text.endswith("\n\n") and HEADER.match(text.splitlines()[0])
    parsed = parse_shared_text(text)
    items = json.loads(Path(json_path).read_text(encoding="utf-8"))["items"]
    zone = timezone(timedelta(hours=8))
    expected = [
        (
            i["nickname"],
            i["IMUserId"],
            datetime.fromtimestamp(i["time"], zone).strftime("%Y-%m-%d %H:%M:%S"),
            i["message"],
        )
        for i in items
    ]
    assert parsed == expected
    assert parsed[0] == ("KP", "10002", "2026-11-22 20:00:07", "你们来到阅览室")
    assert any(name == "骰娘" and "进行了一次暗中检定" in msg for name, _, _, msg in parsed)


def parse_shared_text(text: str) -> list[tuple[str, str, str, str]]:
    """(name, id, time, message) of each line: a header line, the message up to a blank line."""
    out: list[tuple[str, str, str, str]] = []
    body: list[str] = []
    for raw in text.split("\n"):
        m = HEADER.match(raw)
        if m:
            if out:
                out[-1] = (*out[-1][:3], "\n".join(body).rstrip("\n"))
            out.append((m.group(1), m.group(2), m.group(3), ""))
            body = []
        else:
            body.append(raw)
    if out:
        out[-1] = (*out[-1][:3], "\n".join(body).rstrip("\n"))
    return out


def test_both_formats_split_into_complete_parts() -> None:
    """Over the limit: each JSON part is a whole ``{"version":101,"items":[…]}`` and each text
    part whole messages; together every line once, in order."""
    lines = [
        LogLine("10001", "艾拉", [["text", f"L{i:05d} " + "字" * 80]], T0 + timedelta(seconds=i))
        for i in range(40)
    ]
    head = ExportHead("夜", G, T0, T0 + timedelta(hours=1))
    count, files = split_export(sealdice_pieces(head, lines), 2000)
    parts = list(files)
    assert count == len(parts) > 1 and all(len(p) <= 2000 for p in parts)
    got = [i["message"] for p in parts for i in json.loads(p.decode("utf-8"))["items"]]
    assert got == [f"L{i:05d} " + "字" * 80 for i in range(40)]
    count, files = split_export(dice_txt_pieces(head, lines), 2000)
    texts = [p.decode("utf-8") for p in files]
    assert count == len(texts) > 1 and all(len(t.encode()) <= 2000 for t in texts)
    assert [m for t in texts for _, _, _, m in parse_shared_text(t)] == got


async def _info(app: App, text: str, **kw: str) -> tuple[str, dict[str, object] | None]:
    """The reply to ``text`` and the ``commandInfo`` its log line exports."""
    from chronodice.services.gamelog.formats import command_info

    [reply] = [r for r in await run(app, text, **kw) if not r.private]  # type: ignore[arg-type]
    assert reply.check is not None, reply.text
    check = recorder.check_dict(reply.check, kw.get("user", "10001"), kw.get("name", "艾拉"))
    bot = LogLine(BOT, "骰娘", [["text", reply.text]], T0, is_bot=True, check=check)
    return reply.text, command_info(bot, LogLine("10001", "艾拉", [["text", text]], T0))


async def test_d20_and_timeline_checks_export_sealdices_roll_shape(app: App) -> None:
    """Issue 41: story-painter renders ``cmd: "roll"`` items for any rule (and prints any other
    shape of a rule it does not know as raw JSON): a D20 check and a TimeLine check carry their
    die, the total and the label."""
    await run(app, ".st 力量14 体质12 LV4 运动熟练度1", name="艾琳")
    text, info = await _info(app, ".rc 运动 15", name="艾琳")
    m = re.search(r"运动检定：D20=(\d+)[^=]*=(-?\d+)", text)
    assert m is not None, text
    die, total = int(m.group(1)), int(m.group(2))
    assert info == {
        "cmd": "roll",
        "rule": "tick20",
        "pcName": "艾琳",
        "items": [{"expr": f"D20{total - die:+d}", "reason": "运动", "result": total, "dicePoints": 20}],
    }
    await run(app, ".st DEX8 INS6", name="艾琳")
    text, info = await _info(app, ".rc DEX+INS 13", name="艾琳")
    [item] = info["items"]  # type: ignore[index]
    assert (item["expr"], item["dicePoints"]) == ("D8+D6", 8)
    assert f"={item['result']}（HR" in text
    sheet = (
        ".TLsetup 姓名:甲,种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
        "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
        "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
    )
    await run(app, sheet, group="30003")
    await run(app, ".tar 10 10", group="30003", roles=("admin",))
    text, info = await _info(app, ".ex 力", group="30003")
    roll = int(re.search(r"检定：(\d+)/35", text).group(1))  # type: ignore[union-attr]
    assert info == {
        "cmd": "roll",
        "rule": "timeline",
        "pcName": "艾拉",
        "items": [{"expr": "D100", "reason": "力量", "result": roll, "dicePoints": 100}],
    }
