# Troika Arena: a slim image that runs the server as an unprivileged user.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATABASE_URL=sqlite:////data/troika-arena.db

WORKDIR /srv/troika-arena

COPY pyproject.toml README.md alembic.ini ./
COPY .ci/constraints.txt ./.ci/
COPY app ./app
COPY migrations ./migrations
COPY static ./static
COPY templates ./templates

# .ci/constraints.txt: every package at the version CI tested (see README, "Dependencies").
RUN pip install --no-cache-dir --constraint .ci/constraints.txt . \
    && useradd --create-home --uid 10001 arena \
    && mkdir -p /data \
    && chown arena:arena /data

USER 10001
EXPOSE 8000
VOLUME ["/data"]

HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"]

CMD ["troika-arena", "serve"]
