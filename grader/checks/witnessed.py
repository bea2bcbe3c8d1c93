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
    values), the values of the settings the Watch named, read as it ran, its positional arguments'
    shapes (a tracer's too, a symbolic dimension by its text such as "2*k"; None for an argument that
    is neither an array nor a tracer), was that trace for a call of a jax.jit
    function (a trace for make_jaxpr, eval_shape or `.lower` runs nothing), did the body return
    (a run that raised, its error caught by the caller, made nothing), and was it traced inside
    checkify's transformation."""

    traced: bool
    settings: dict
    shapes: tuple = ()  # of each positional argument: an array's or a tracer's shape, None for anything else
    jit_call: bool = False  # traced for a call of a jax.jit function (not make_jaxpr, eval_shape, lower)
    returned: bool = False  # the body ran to its end (it did not raise)
    checkified: bool = False  # traced inside checkify's transformation


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
        return [Run(bool(traced), dict(values), tuple(shapes), bool(by_jit), bool(returned), bool(checkified))
                for traced, values, shapes, by_jit, returned, checkified in record]

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
    """`every_setting()` of this process, read through the readers bound before any submission code
    ran where there are some (the subject's: `bind_settings`)."""
    from jax._src import config as jax_config

    readers = _BOUND_READERS or setting_readers()
    unset = jax_config.config_ext.unset
    found = {}
    for name in sorted(readers):
        get_local, get_global, _ = readers[name]
        local, overall = get_local(), _shown(get_global())
        seen = overall if local is unset else _shown(local)
        found[name] = seen if overall == seen else f"{seen} here (set globally to {overall})"
    hook = _output_check_left_apart(readers, unset)
    if hook:
        for name in _OUTPUT_CHECKS:
            found[name] = f"{found[name]}, yet {hook}"
    return found


# jit's C++ fast path does not read jax_debug_nans or jax_debug_infs: it asks JAX's post hook (the
# unregistered config `post_hook`), which those two settings' own hooks set. Set directly, the hook
# checks every jitted call's output while both settings read off.
_OUTPUT_CHECKS = ("jax_debug_nans", "jax_debug_infs")


def _output_check_left_apart(readers: dict, unset: Any) -> str:
    """What jit's output check does when JAX's post hook disagrees with the settings that set it
    ("" when it agrees). Only the global values are held to agree, and a hook on this thread only
    when it is on: JAX itself leaves this thread's hook off when a `with jax.debug_nans(True)`
    block ends, whatever the global setting."""
    if "post_hook" not in readers or not all(name in readers for name in _OUTPUT_CHECKS):
        return ""

    def value(name: str) -> Any:
        local = readers[name][0]()
        return readers[name][1]() if local is unset else local

    hook_global = readers["post_hook"][1]() is not None
    if hook_global != any(bool(readers[name][1]()) for name in _OUTPUT_CHECKS):
        return f"jit's output check is globally {'on' if hook_global else 'off'} (JAX's post hook set directly)"
    if value("post_hook") is not None and not any(bool(value(name)) for name in _OUTPUT_CHECKS):
        return "jit's output check is on here (JAX's post hook set directly)"
    return ""


def setting_readers() -> dict[str, tuple[Callable, Callable, Callable]]:
    """Every option `jax.config.update` takes -> (its local value's reader, its global value's reader,
    its global value's writer), bound now. A config `State` has both values; a plain `Flag`
    (jax_disable_most_optimizations, jax_cpu_enable_async_dispatch...) only a global one, read
    through `Flag`'s own slot (a property put on the class later is not what reads it) and never
    local (the reader gives `unset`). Bound before any submission code runs, none of it is looked
    up on a class or in JAX's tables, which any code may change, when it is used."""
    import functools
    import itertools

    from jax._src import config as jax_config

    readers = {name: (state.get_local, state.get_global, state._set)
               for name, state in dict(jax_config.config_states).items()}
    flag_value = vars(jax_config.Flag)["value"].__get__
    never_local = itertools.repeat(jax_config.config_ext.unset).__next__
    for name, holder in dict(jax_config.config._value_holders).items():
        if name not in readers and isinstance(holder, jax_config.Flag):
            readers[name] = (never_local, functools.partial(flag_value, holder), holder._set)
    for name, holder in _unregistered_settings().items():
        readers.setdefault(name, (holder.get_local, holder.get_global, holder.set_global))
    return readers


# JAX's own trace machinery, which every trace changes and restores: state, not a setting.
_TRACE_STATE = frozenset({"trace_state", "trace_state_strong_ref", "axis_env_state"})


def _unregistered_settings() -> dict[str, Any]:
    """The configs JAX keeps outside `jax.config`'s tables, by their names: jit's post hook (which
    checks outputs for NaN), the mesh, device and compute-on contexts. A context left entered, or
    the hook set directly, changes later calls as a setting does."""
    import sys

    from jax._src import config as jax_config

    kind, found = jax_config.config_ext.Config, {}
    for module_name, module in list(sys.modules.items()):
        if module is None or not module_name.startswith("jax."):
            continue
        for value in list(vars(module).values()):
            if type(value) is kind and value.name not in _TRACE_STATE:
                found.setdefault(value.name, value)
    return found


_BOUND_READERS: Any = None  # the subject's `setting_readers()`, bound before the submission ran


def bind_settings(readers: Any) -> None:
    """Read every setting through `readers` from now on (the subject binds its own at start)."""
    global _BOUND_READERS
    _BOUND_READERS = readers


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
