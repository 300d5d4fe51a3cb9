"""Build the Dockerfile and talk to the container as NapCat would: ``.r 1d6`` gets its reply.

Needs a container runtime that can build (``docker``, or the command in ``CHRONODICE_CONTAINER``,
e.g. ``podman``). Where none answers the test is skipped with a visible message.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import pytest
from onebot_client import ROOT, TOKEN, OneBotClient, free_port

pytestmark = [pytest.mark.e2e, pytest.mark.container]

RUNTIME = os.environ.get("CHRONODICE_CONTAINER", "docker")


def _runtime_problem() -> str | None:
    if shutil.which(RUNTIME) is None:
        return f"no container runtime ({RUNTIME} is not installed)"
    try:
        done = subprocess.run([RUNTIME, "info"], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return f"{RUNTIME} info did not answer in 30 s"
    if done.returncode != 0:
        return f"{RUNTIME} cannot reach a container engine: {(done.stderr or done.stdout).strip()[:200]}"
    return None


@pytest.fixture(scope="module")
def image() -> Iterator[str]:
    problem = _runtime_problem()
    if problem:
        print(f"\n*** SKIPPING the image test: {problem} ***", file=sys.stderr)
        pytest.skip(problem)
    tag = f"chronodice-test:{uuid.uuid4().hex[:8]}"
    done = subprocess.run(
        [RUNTIME, "build", "-t", tag, str(ROOT)], capture_output=True, text=True, timeout=1200
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    try:
        yield tag
    finally:
        subprocess.run([RUNTIME, "rmi", "-f", tag], capture_output=True, timeout=120)


async def test_image_answers_r_1d6_as_a_non_root_user(image: str) -> None:
    port = free_port()
    name = f"chronodice-test-{uuid.uuid4().hex[:8]}"
    subprocess.run(
        [
            RUNTIME, "run", "-d", "--name", name, "-p", f"127.0.0.1:{port}:8080",
            "-e", f"ONEBOT_ACCESS_TOKEN={TOKEN}", "-e", 'SUPERUSERS=["99999"]', image,
        ],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    try:
        async with OneBotClient(f"ws://127.0.0.1:{port}/onebot/v11/ws") as client:
            client_text = await client.group(".r 1d6", expect=1, timeout=30)
        assert re.search(r"1d6=[1-6]\b", client_text), client_text
        uid = subprocess.run(
            [RUNTIME, "exec", name, "id", "-u"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
        assert uid not in ("", "0")
        deadline = time.monotonic() + 10
        logs = ""
        while "数据目录：/data" not in logs and time.monotonic() < deadline:
            done = subprocess.run([RUNTIME, "logs", name], capture_output=True, text=True, timeout=30)
            logs = done.stdout + done.stderr
            time.sleep(0.5)
        assert "OneBot 反向 WebSocket 地址：ws://0.0.0.0:8080/onebot/v11/ws" in logs
        assert "数据库：sqlite /data/chronodice.db" in logs and "访问令牌：已设置" in logs
    finally:
        subprocess.run([RUNTIME, "rm", "-f", name], capture_output=True, timeout=60)
