# Troika Arena: a slim image that runs the server as an unprivileged user.
# The base image is pinned by digest (python:3.11-slim's multi-platform index). To move it on:
# `docker buildx imagetools inspect python:3.11-slim` prints the current digest (README, "Run it
# with Docker Compose").
FROM python:3.11-slim@sha256:9c900dea9e8fb7e16277c179b555cc72d29a352dbc33cff48ad5a0412fd5bfc7

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATABASE_URL=sqlite:////data/troika-arena.db

# The dependency layer: every runtime package and the build backend (hatchling), each checked
# against its hashes in .ci/image.lock. It is rebuilt only when the lock changes, so a change
# of the code reuses it.
RUN --mount=type=bind,source=.ci/image.lock,target=/tmp/image.lock \
    pip install --no-cache-dir --require-hashes --no-deps --requirement /tmp/image.lock \
    && useradd --create-home --uid 10001 arena \
    && mkdir -p /data \
    && chown arena:arena /data

# The server itself, built from the build context mounted for this step alone: the wheel lands
# in site-packages (static files, templates and migrations inside it), and no copy of the source
# stays in the image. `pip check`: the lock gave every package the server needs.
RUN --mount=type=bind,target=/tmp/src,rw \
    pip install --no-cache-dir --no-deps --no-build-isolation /tmp/src \
    && pip check

USER 10001
WORKDIR /data
EXPOSE 8000

# `troika-arena health` asks /healthz on PORT (and HOST), the same settings `serve` listens on.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["troika-arena", "health"]

CMD ["troika-arena", "serve"]
