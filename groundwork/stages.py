"""The corpus flow's stages, in order: what `--from-stage` and `--only` accept."""

STAGES = (
    "ingest",
    "chunk",
    "extract",
    "register",
    "questions",
    "retrieve",
    "verify",
    "compose",
    "review",
    "publish",
)
