# Herald: one image for the Discord and the Telegram bot (the command picks the platform).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/herald.db
WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY storage ./storage
COPY bot ./bot
COPY bench ./bench
RUN pip install --no-cache-dir ".[postgres]" && useradd --create-home herald && mkdir /data && chown herald /data
USER herald
VOLUME /data
CMD ["python", "-m", "bot", "run"]
