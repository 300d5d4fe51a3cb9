# ChronoDice container image: `python bot.py` as a non-root user, everything it writes on /data.
#
#   docker build -t chronodice .
#   docker run -d --name chronodice -p 127.0.0.1:8080:8080 -v chronodice-data:/data \
#     -e ONEBOT_ACCESS_TOKEN=… -e SUPERUSERS='["12345678"]' chronodice
#
# compose.yaml runs it with PostgreSQL. NapCat connects to ws://<host>:8080/onebot/v11/ws.
# The dependencies come from requirements.lock, as in README's test command and .ci/run
# (tests/deploy/test_packaging.py keeps the three in step).

ARG PYTHON_VERSION=3.11

FROM python:${PYTHON_VERSION}-slim-bookworm AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
WORKDIR /build
RUN python -m venv /opt/venv
COPY pyproject.toml requirements.lock ./
# pyproject's runtime dependencies at the versions of the lockfile (no test or console extra: the
# terminal chat needs a terminal, which a container has not).
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
 && /opt/venv/bin/pip install -c requirements.lock -r requirements.txt \
 && /opt/venv/bin/pip uninstall -q -y pip setuptools
COPY bot.py ./app/
# src/ holds the library and the NoneBot plugin nonebot_plugin_chronodice (pyproject's
# [tool.nonebot.plugins] loads it, as an existing bot loads the installed wheel).
COPY src ./app/src
RUN cp pyproject.toml ./app/ \
 && find ./app -name '__pycache__' -prune -exec rm -rf {} + \
 && /opt/venv/bin/python -m compileall -q ./app/src

FROM python:${PYTHON_VERSION}-slim-bookworm
RUN useradd --system --uid 10001 --user-group --home-dir /app --no-create-home --shell /usr/sbin/nologin chronodice \
 && mkdir /data && chown chronodice:chronodice /data
COPY --from=build /opt/venv /opt/venv
COPY --from=build /build/app /app
WORKDIR /app
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONPATH=/app/src \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    ENVIRONMENT=prod \
    DRIVER=~fastapi \
    HOST=0.0.0.0 \
    PORT=8080 \
    CHRONODICE_DATA_DIR=/data
USER chronodice
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["python", "-c", "import os, socket; socket.create_connection(('127.0.0.1', int(os.environ['PORT'])), 3).close()"]
CMD ["python", "bot.py"]
