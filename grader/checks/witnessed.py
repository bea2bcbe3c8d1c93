"""What an exercise did with a function a check handed it, and which JAX settings it left changed:
facts read where the exercise runs, never from an object the exercise was handed.

- `Watch(body, settings=(...))`: `.f` is `body` as handed to the exercise (it holds a number and a
  name only); `.runs()` lists every run of the body, whether it was traced by jax.jit (or another
  tracing transformation), the named settings' values then and the shapes of its array arguments,
  from the record of
  `grader.runtime.witness` (under the grader: the audit hook's private copy). A counter or list on
  a check's own class handed to the exercise is the exercise's to rewrite (`f.traces = 1`).
- `every_setting()`, `assert_leaves_settings(call, ...)`: every global JAX setting (`jax.config`),
  before and after a call, where the exercise runs: a task that says "leave the settings as you found
  them" covers a sibling setting (`jax_explicit_x64_dtypes` beside `jax_enable_x64`) too.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from grader.checks import site
from grader.checks.core import fail, sentence
from grader.runtime import witness


@dataclass(frozen=True)
class Run:
    """One run of a watched body: was it traced (its arguments tracers of a jax.jit-style trace, not
    values), the values of the settings the Watch named, read as it ran, and its positional arguments'
    shapes (None for an argument that is not an array)."""

    traced: bool
    settings: dict
    shapes: tuple = ()  # of each positional argument: an array's shape, None for anything else


class Watch:
    """`body` handed to an exercise through the witness. Hand out `.f` (under the grader, the
    subject's witnessed function); read `.runs()` and `.traces()` afterwards."""

    def __init__(self, body: Callable, *, settings: tuple[str, ...] = ()) -> None:
        self.name = body.__name__
        where = site.current()
        made = start_watch(body, tuple(settings)) if where is None else where.run(start_watch, body, tuple(settings))
        self._number, self.f = made[0], made[1]

    def runs(self) -> list[Run]:
        where = site.current()
        record = runs_of(self._number) if where is None else where.run(runs_of, self._number)
        return [Run(bool(traced), dict(values), tuple(shapes)) for traced, values, shapes in record]

    def traces(self) -> int:
        """How many times the body ran on tracers (traced), not on values."""
        return sum(run.traced for run in self.runs())


def start_watch(body: Callable, settings: tuple[str, ...]) -> tuple[int, Any]:
    """(the record's number, the function to hand out), made where this runs (the subject)."""
    return witness.watch(body, settings)


def runs_of(number: int) -> list:
    """The witness's record of watched body `number`, where this runs (the subject)."""
    return witness.runs_of(number)


# --- every global JAX setting ---------------------------------------------------------------------


def every_setting() -> dict[str, str]:
    """Every JAX setting where the exercise runs, applied the check's own settings first: name -> its
    value, shown as `jax.config.update` takes it, with the global value beside it where a context
    manager left open on this thread makes the two differ."""
    where = site.current()
    return settings_here() if where is None else where.run(settings_here)


def settings_here() -> dict[str, str]:
    """`every_setting()` of this process."""
    import jax
    from jax._src import config as jax_config

    effective = jax.config.values
    found = {}
    for name in sorted(effective):
        state = jax_config.config_states.get(name)
        seen = _shown(effective[name])
        overall = _shown(state.get_global()) if state is not None else seen
        found[name] = seen if overall == seen else f"{seen} here (set globally to {overall})"
    return found


def _shown(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return repr(value.name.lower())
    return repr(value)


def changed_settings(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The settings whose value differs between two `every_setting()` snapshots, each as
    "name from before to after"."""
    return [f"{name} from {before.get(name, 'unset')} to {after.get(name, 'unset')}"
            for name in sorted(set(before) | set(after)) if before.get(name) != after.get(name)]


def assert_leaves_settings(call: Callable[[], Any], *, what: str, why: str = "") -> Any:
    """`call()` leaves every global JAX setting as it found it, where the exercise runs; returns what
    `call()` returned. Each setting left changed is named with its value before and after."""
    __tracebackhide__ = True
    before = every_setting()
    out = call()
    changed = changed_settings(before, every_setting())
    if changed:
        fail(sentence(f"{what} left {len(changed)} JAX setting(s) changed: "
                      f"{'; '.join(changed)}. Settings are global: every later call in the caller's program "
                      f"would run with a value the caller never chose. Change a setting for your own "
                      f"block only, with the context manager that restores the caller's value on the way "
                      f"out.", why), "global-setting")
    return out
