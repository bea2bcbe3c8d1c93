"""How to start a subject process: written by the grader, read by the examiner (no JAX here, so the
grader itself starts quickly)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path


@dataclasses.dataclass
class SubjectConfig:
    """How to start a subject: the command before `python`, where the submission is, its environment."""

    submission: str
    prefix: list[str] = dataclasses.field(default_factory=list)  # limits launcher and sandbox
    env: dict[str, str] | None = None
    cwd: str | None = None
    devices: int = 8
    log: str | None = None  # where its own output goes (a file), for crash reasons
    memory_bytes: int = 0  # its memory limit, for the message when it is exceeded
    host: str | None = None  # the socket of the submission's subject host, which forks subjects (subject.host)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(dataclasses.asdict(self)), encoding="utf-8")

    @staticmethod
    def load(path: Path) -> SubjectConfig:
        return SubjectConfig(**json.loads(Path(path).read_text(encoding="utf-8")))

    def with_devices(self, n: int) -> SubjectConfig:
        return dataclasses.replace(self, devices=n)
