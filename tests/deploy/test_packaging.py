"""The deployment files stay in step with pyproject.toml and with each other.

* requirements.lock pins every package that pyproject's dependencies pull in, at versions that
  satisfy pyproject, and the environment the tests run in was installed from it;
* README's two commands, .ci/run, the Dockerfile and the systemd unit all install from the lock;
* the Dockerfile copies what ``python bot.py`` needs, runs as non-root and keeps data on /data;
* compose.yaml and .env.example know the same settings; the package data in pyproject exists.

No container runtime is needed here; test_image.py builds and runs the image where one exists.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from chronodice.store.url import normalize_database_url

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCK = ROOT / "requirements.lock"
REGENERATE = (
    "regenerate it: uv pip compile pyproject.toml --extra test --universal --python-version 3.10 "
    "-o requirements.lock (docs/development.md, 'Dependencies and the lockfile')"
)


def lock_pins(env: dict[str, str] | None = None) -> dict[str, Version]:
    """The lock's pins that apply in ``env`` (default: this interpreter)."""
    pins: dict[str, Version] = {}
    for raw in LOCK.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip().rstrip("\\").strip()
        if not line or line.startswith("-"):
            continue
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate(env or {}):
            continue
        (spec,) = req.specifier
        assert spec.operator == "==", f"requirements.lock: {line!r} is not an exact pin"
        name = canonicalize_name(req.name)
        assert name not in pins, f"requirements.lock pins {name} twice for one environment"
        pins[name] = Version(spec.version)
    return pins


OURS = canonicalize_name(PYPROJECT["project"]["name"])


def requirements(extras: tuple[str, ...] = ()) -> list[Requirement]:
    """pyproject's dependencies and those of ``extras``, with an extra that names this project
    (``nonebot-plugin-chronodice[console]`` in ``test``) replaced by that extra's requirements."""
    project = PYPROJECT["project"]
    out = [Requirement(r) for r in project["dependencies"]]
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop(0)
        if extra in seen:
            continue
        seen.add(extra)
        for raw in project["optional-dependencies"][extra]:
            req = Requirement(raw)
            if canonicalize_name(req.name) == OURS:
                todo.extend(sorted(req.extras))
            else:
                out.append(req)
    return out


def top_level() -> list[Requirement]:
    """What README's test command installs: the dependencies and the ``test`` extra's."""
    return requirements(("test",))


def test_the_wheel_requires_ranges_never_an_exact_pin() -> None:
    """A NoneBot bot that installs the plugin keeps its own NoneBot, adapter and test tools
    (issue 41): every requirement in pyproject, extras too, is a range; the exact versions of the
    standalone bot and CI are requirements.lock's."""
    project = PYPROJECT["project"]
    every = project["dependencies"] + [r for rs in project["optional-dependencies"].values() for r in rs]
    pinned = [r for r in every if any(s.operator in ("==", "===") for s in Requirement(r).specifier)]
    assert not pinned, f"exact pins in pyproject.toml: {pinned}"
    names = {canonicalize_name(Requirement(r).name): Requirement(r) for r in project["dependencies"]}
    assert Version("2.4.4") in names["nonebot2"].specifier, "a NoneBot 2.4 bot must be able to install it"
    assert Version("2.4.5") in names["nonebot-adapter-onebot"].specifier
    assert "nonebot-plugin-localstore" in names
    assert "nonebot-adapter-console" not in names, "the terminal chat is the console extra"
    console = [canonicalize_name(Requirement(r).name) for r in project["optional-dependencies"]["console"]]
    assert console == ["nonebot-adapter-console"]
    assert "nonebot-adapter-console" in {canonicalize_name(r.name) for r in top_level()}, (
        "the tests need the console extra (test_console.py)"
    )


def python_env(version: str) -> dict[str, str]:
    env = dict(default_environment())
    env.update(python_version=version, python_full_version=f"{version}.0")
    return env


@pytest.mark.parametrize("python", ["3.10", "3.11", "3.12", "3.13"])
def test_lock_pins_every_top_level_dependency_within_pyproject(python: str) -> None:
    pins = lock_pins(python_env(python))
    for req in top_level():
        if req.marker is not None and not req.marker.evaluate(python_env(python)):
            continue
        name = canonicalize_name(req.name)
        assert name in pins, (
            f"{req} (pyproject) is not in requirements.lock for Python {python}; {REGENERATE}"
        )
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"requirements.lock pins {name}=={pins[name]}, outside pyproject's {req}; {REGENERATE}"
        )


def test_installed_environment_is_the_lock() -> None:
    """Walk the installed dependency tree from pyproject: every package is pinned, at that version."""
    pins = lock_pins()
    todo: list[tuple[Requirement, frozenset[str]]] = [(r, frozenset({"", "test"})) for r in top_level()]
    seen: set[str] = set()
    while todo:
        req, extras = todo.pop()
        if req.marker is not None and not any(req.marker.evaluate({"extra": e}) for e in extras):
            continue
        name = canonicalize_name(req.name)
        dist = metadata.distribution(name)
        version = Version(dist.version)
        assert name in pins, (
            f"{name} {version} is installed (needed by pyproject) but not locked; {REGENERATE}"
        )
        assert version == pins[name], (
            f"{name} {version} is installed, requirements.lock says {pins[name]}: "
            "install with pip install -c requirements.lock (README's commands)"
        )
        key = f"{name}{sorted(req.extras)}"
        if key in seen:
            continue
        seen.add(key)
        for sub in dist.requires or []:
            todo.append((Requirement(sub), frozenset({"", *req.extras})))
    assert len(seen) > 30


def readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## 快速开始", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)\n```", quick, re.S)
    assert len(blocks) == 2, "README's 快速开始 has exactly two commands: run the bot, run the tests"
    return blocks


def test_readme_commands_and_ci_install_from_the_lock() -> None:
    run_bot, run_tests = readme_commands()
    assert "-c requirements.lock" in run_bot and run_bot.rstrip().endswith("python bot.py")
    assert "-e '.[console]'" in run_bot, "README's bot has the terminal chat (CHRONODICE_CONSOLE=true)"
    assert "-c requirements.lock -e '.[test]'" in run_tests and "pytest" in run_tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    ci_lines = [line.strip() for line in ci.splitlines() if not line.lstrip().startswith("#")]
    assert run_tests.strip() in ci_lines, ".ci/run must run exactly README's test command"


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) with continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    text = re.sub(r"\\\n", " ", text)
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_dockerfile_installs_from_the_lock_and_runs_the_bot_as_non_root() -> None:
    steps = dockerfile()
    runs = [args for op, args in steps if op == "RUN"]
    installs = [r for r in runs if "pip install" in r]
    assert installs and all("-c requirements.lock" in r for r in installs), installs
    assert any("['project']['dependencies']" in r for r in installs), "the image installs pyproject's deps"
    copied = [args.split() for op, args in steps if op == "COPY" and "--from" not in args]
    sources = {src for parts in copied for src in parts[:-1]}
    for needed in ("pyproject.toml", "requirements.lock", "bot.py", "src"):  # src/ holds the plugin
        assert needed in sources, f"the Dockerfile does not COPY {needed}"
    for src in sources:
        assert (ROOT / src).exists(), f"the Dockerfile copies {src}, which does not exist"
    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert not sources & ignored, ".dockerignore hides a file the Dockerfile copies"
    assert {"data", ".env.prod", ".venv"} <= ignored
    (arg,) = [args for op, args in steps if op == "ARG" and args.startswith("PYTHON_VERSION=")]
    python = arg.split("=", 1)[1]
    assert Version(python) in SpecifierSet(PYPROJECT["project"]["requires-python"])
    env = " ".join(args for op, args in steps if op == "ENV")
    assert "CHRONODICE_DATA_DIR=/data" in env and "HOST=0.0.0.0" in env and "PORT=8080" in env
    assert ("VOLUME", '["/data"]') in steps and ("EXPOSE", "8080") in steps
    users = [args for op, args in steps if op == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert steps[-1] == ("CMD", '["python", "bot.py"]')


def known_settings() -> set[str]:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    return set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", text, re.M))


def test_env_example_documents_every_plugin_setting() -> None:
    import nonebot

    plugin = nonebot.get_plugin("nonebot_plugin_chronodice")
    assert plugin is not None and plugin.metadata is not None and plugin.metadata.config is not None
    fields = {name.upper() for name in plugin.metadata.config.model_fields}
    assert len(fields) == 25
    assert fields <= known_settings(), f"not in .env.example: {sorted(fields - known_settings())}"


def test_compose_runs_the_image_with_postgresql() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    bot = compose["services"]["chronodice"]
    assert bot["build"] == "."
    env: dict[str, str] = bot["environment"]
    assert set(env) <= known_settings(), (
        f"compose sets unknown settings: {sorted(set(env) - known_settings())}"
    )
    url = re.sub(r"\$\{[^}]*\}", "secret", env["CHRONODICE_DATABASE_URL"])
    assert normalize_database_url(url).startswith("postgresql+asyncpg://")
    db_host = re.search(r"@([^:/]+)", url)
    assert db_host and db_host.group(1) in compose["services"], "the database URL names no compose service"
    db = compose["services"][db_host.group(1)]
    assert bot["depends_on"][db_host.group(1)]["condition"] == "service_healthy" and "healthcheck" in db
    assert any(v.endswith(":/data") for v in bot["volumes"]), "the bot's data volume is not /data"
    assert all(str(p).endswith(":8080") for p in bot["ports"])


def unit() -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    for line in (ROOT / "deploy" / "chronodice.service").read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            values.setdefault(key.strip(), []).append(value.strip())
    return values


def test_systemd_unit_runs_bot_py_with_a_state_directory() -> None:
    u = unit()
    workdir = u["WorkingDirectory"][0]
    assert shlex.split(u["ExecStart"][0]) == [f"{workdir}/.venv/bin/python", "bot.py"]
    assert f"CHRONODICE_DATA_DIR=/var/lib/{u['StateDirectory'][0]}" in u["Environment"]
    assert u["User"] == ["chronodice"]
    text = (ROOT / "deploy" / "chronodice.service").read_text(encoding="utf-8")
    assert "pip install -c requirements.lock" in text


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_unit_verifies(tmp_path: Path) -> None:
    text = (ROOT / "deploy" / "chronodice.service").read_text(encoding="utf-8")
    path = tmp_path / "chronodice.service"
    path.write_text(text.replace("/opt/chronodice/.venv/bin/python", sys.executable), encoding="utf-8")
    done = subprocess.run(
        ["systemd-analyze", "verify", str(path)], capture_output=True, text=True, timeout=60
    )
    problems = [
        line
        for line in (done.stdout + done.stderr).splitlines()
        if str(path) in line and "Failed to resolve user" not in line and "User" not in line
    ]
    assert not problems, done.stdout + done.stderr


def test_package_data_and_licence_files_exist() -> None:
    package_data = PYPROJECT["tool"]["setuptools"]["package-data"]
    assert set(package_data) == {"chronodice", "nonebot_plugin_chronodice"}
    for package, patterns in package_data.items():
        for pattern in patterns:
            assert list((ROOT / "src" / package).glob(pattern)), f"package-data {pattern!r} of {package}"
    for name in PYPROJECT["project"]["license-files"]:
        assert (ROOT / name).is_file(), name
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_every_data_file_in_the_packages_ships_in_the_wheel() -> None:
    """A file beside the code that is not Python (fonts, packs, decks, the web pages' static
    files) reaches the wheel only through package-data: one left out breaks the installed
    plugin at start (test_wheel_install.py), so name it here first."""
    package_data = PYPROJECT["tool"]["setuptools"]["package-data"]
    for package, patterns in package_data.items():
        base = ROOT / "src" / package
        shipped = {path for pattern in patterns for path in base.glob(pattern) if path.is_file()}
        data = {
            path
            for path in base.rglob("*")
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
        }
        missing = sorted(str(path.relative_to(base)) for path in data - shipped)
        assert not missing, f"not in pyproject's package-data of {package}: {missing}"
