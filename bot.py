"""Start ChronoDice: ``python bot.py`` (reads .env and the environment, NoneBot's way).

OneBot v11 implementations (NapCat, Lagrange.OneBot, LLOneBot) connect by reverse WebSocket to
``ws://HOST:PORT/onebot/v11/ws``.  ``CHRONODICE_CONSOLE=true`` adds NoneBot's terminal chat.
"""

import os
import sys
from pathlib import Path

import nonebot
from nonebot.adapters.onebot.v11 import Adapter as OneBotV11Adapter

ROOT = Path(__file__).resolve().parent
os.chdir(ROOT)  # the default SQLite path data/chronodice.db is relative to the repository
sys.path.insert(0, str(ROOT / "src"))

nonebot.init()
driver = nonebot.get_driver()
driver.register_adapter(OneBotV11Adapter)
if os.environ.get("CHRONODICE_CONSOLE", str(getattr(driver.config, "chronodice_console", ""))).lower() in (
    "1",
    "true",
    "yes",
):
    from nonebot.adapters.console import Adapter as ConsoleAdapter

    driver.register_adapter(ConsoleAdapter)
nonebot.load_from_toml("pyproject.toml")

if __name__ == "__main__":
    nonebot.run()
