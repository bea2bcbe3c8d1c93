"""Where the exercise's code runs, as the check helpers see it.

In a learner's run the exercise is imported into the check's own process, and
the helpers act on it directly. Under the grader it runs in another process
(the subject), and the examiner installs a `Site` that asks the subject for
what only it can see: a setting after a call, a buffer's address, a function
swapped in the exercise's module, a check's own probe run beside the
exercise. The helpers ask `current()`: None means "here, in this process".
This module imports nothing: the layer that knows about the subject
registers itself from above.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol


class Site(Protocol):
    def swap(self, module: Any, name: str, replacement: Callable) -> AbstractContextManager[Any]: ...

    def observe(self, probe: Callable, exercise: Any, *args: Any, **kwargs: Any) -> Any: ...

    def run(self, function: Callable, *args: Any) -> Any: ...

    def setting(self, name: str) -> Any: ...

    def change_setting(self, name: str, value: Any) -> None: ...

    def buffer_pointers(self, array: Any) -> list[int]: ...

    def run_in_processes(self, exercise_file: str, function: str, what: str, options: dict) -> Any: ...

    def compiled_ahead_of_time(self) -> list[str]: ...

    def within_seconds(self, seconds: float, check: Callable, exercise: Any) -> dict: ...

    def on_devices(self, n_devices: int, check: Callable, exercise: Any) -> dict: ...

    def held_there(self, value: Any) -> bool: ...


_current: Site | None = None
_protocol_folders: list[str] = []


def add_protocol_folder(folder: str) -> None:
    """Code under `folder` talks to the examiner (sends results back): what it reads of an array is
    the grader's reading, not the exercise's. The subject adds its own folder when it starts."""
    if folder not in _protocol_folders:
        _protocol_folders.append(folder)


def is_protocol(filename: str) -> bool:
    return filename.startswith(tuple(_protocol_folders)) if _protocol_folders else False


def protocol_folders() -> tuple[str, ...]:
    """The folders `add_protocol_folder` named, as they are now (a copy: bound by a watch when it
    starts, so a folder added later, by anyone, changes nothing it judges)."""
    return tuple(_protocol_folders)


def current() -> Site | None:
    """The site the exercise runs in, or None when it is imported into this process."""
    return _current


def install(site: Site | None) -> None:
    global _current
    _current = site
