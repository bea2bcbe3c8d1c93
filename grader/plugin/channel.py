"""The grader's private channel: each check's outcome, folded from pytest's reports and signed,
written to the descriptor the grader handed over (`--kata-channel`)."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from grader.plugin.state import STATE, KataState


def open_channel(handshake_fd: int) -> tuple[Any, bytes]:
    """Read the grader's one-shot handshake (key and result descriptor), then close it.

    This runs in pytest_configure, before any submission code is imported, so
    the handshake is gone by the time submission code could look for it.
    """
    with os.fdopen(handshake_fd, "r", encoding="utf-8") as handshake:
        hello = json.loads(handshake.read())
    return os.fdopen(hello["fd"], "w", encoding="utf-8", buffering=1), bytes.fromhex(hello["key"])


def forget_hidden_sources(state: KataState) -> None:
    """Delete the grader's copies of the hidden checks, now imported, before any submission code runs."""
    import linecache
    import shutil

    if state.hidden_dir.is_dir():
        for path in state.hidden_dir.rglob("*.py"):
            linecache.cache.pop(str(path), None)
        shutil.rmtree(state.hidden_dir, ignore_errors=True)


def write(config: pytest.Config | None, record: dict[str, Any]) -> None:
    from grader.engine.runner import sign

    state = config.stash.get(STATE, None) if config is not None else None
    if state is None or state.channel is None:
        return
    mac = sign(state.key, json.dumps(record, sort_keys=True))
    try:
        state.channel.write(json.dumps({**record, "mac": mac}) + "\n")
    except OSError:
        pass  # the channel was closed under us: the grader counts what never arrived as failed
