"""Fixtures for the project's own tests (helpers live in support.py)."""

from __future__ import annotations

import pytest

from support import Runs


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    runs = Runs(tmp_path_factory.mktemp("runs"))
    yield runs
    runs.pool.shutdown(cancel_futures=True)


