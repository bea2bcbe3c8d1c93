"""Checks for debug-2 (nan_origin)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax._src import config as jax_config

from grader import checks

FLAGS = f"{checks.DOCS}/debugging/flags.html"


# Global switches an answer to this exercise might flip; each check restores them.
SWITCHES = ("jax_debug_nans", "jax_debug_infs", "jax_disable_jit")


@pytest.fixture(autouse=True)
def _keep_switches():
    """Whatever the answer does, the next check starts with JAX's switches as this one found them."""
    states = [jax_config.config_states[name] for name in SWITCHES]
    saved = [(state.get_global(), state.get_local()) for state in states]
    yield
    for name, state, (global_value, local_value) in zip(SWITCHES, states, saved):
        jax.config.update(name, global_value)
        state.set_local(local_value)
        if state._update_thread_local_hook is not None:
            state._update_thread_local_hook(None if local_value is jax_config.config_ext.unset else local_value)


def _watched(body):
    """body, handed to nan_origin through the witness (checks.Watch): each run of its Python body is
    recorded where the exercise cannot reach, with whether a call of jax.jit(f) was tracing it (rather
    than running it on values, or make_jaxpr tracing it) and whether jax_debug_nans was on then."""
    return checks.Watch(body, settings=("jax_debug_nans",))


def spread(x):
    return jnp.log(jnp.sqrt(x - 2.0)) * 2.0  # sqrt makes the NaN; log and * only pass it on


def standardise(x):
    return (x - jnp.mean(x)) / jnp.std(x)  # a constant x: 0 / 0


def log_scale(x):
    return jnp.log(x) * 2.0  # log(0) is -inf, not NaN


def broken(x):
    return x @ jnp.ones((3, 3), x.dtype)  # a shape error while tracing


def _origin(exercise, f, *host_args, what):
    args = tuple(jnp.asarray(a) for a in host_args)
    try:
        return exercise.nan_origin(f.f, *args)
    except FloatingPointError as error:
        checks.fail(f"{what} let JAX's FloatingPointError escape ({str(error).splitlines()[0][:100]!r}): "
                    f"nan_origin should catch it and return the name of the primitive it reports.")


def _setting_now():
    """jax_debug_nans where the exercise runs, its global value beside it when this thread holds
    a value of its own (a context manager left open, a value pinned on the thread)."""
    return checks.every_setting()["jax_debug_nans"]


def _check_setting(before, *, what):
    now = _setting_now()
    if now != before:
        checks.fail(f"after {what}, jax_debug_nans reads {now}; it read {before} before. The option is "
                    f"global, and a value left on the calling thread counts too: every later jitted call "
                    f"in the program would run with a value the caller never chose. Change it for one "
                    f"block only, with a setting that is restored on the way out, even when an error "
                    f"escapes. See {FLAGS}", "global-setting")


def _check_ran_checked(f, *, what):
    runs = f.runs()
    if not any(run.settings["jax_debug_nans"] for run in runs):
        checks.fail(f"{what}: {f.name} never ran with jax_debug_nans on (its Python body ran "
                    f"{len(runs)} time(s), each time with NaN checking off). The task is to let JAX "
                    f"find the NaN: with the option on, a jitted call whose output holds a NaN is run "
                    f"again op by op and stops at the first primitive that made one. See {FLAGS}",
                    "wrong-tool")
    if not any(run.settings["jax_debug_nans"] and run.jit_call for run in runs):
        how = ("only traced, for no call of a jitted function (make_jaxpr, eval_shape or .lower "
               "run nothing)" if any(run.settings["jax_debug_nans"] and run.traced for run in runs)
               else "only ever called on values, op by op")
        checks.fail(f"{what}: {f.name} ran with NaN checking on, but never for a call of jax.jit(f): "
                    f"it was {how}. The task is jax.jit(f)(*args) with the option on: JAX checks the "
                    f"compiled call's output and, when it holds a NaN, runs the function again "
                    f"de-optimized to find the primitive that made it. See {FLAGS}", "not-jitted")
    if any(run.checkified for run in runs):
        checks.fail(f"{what}: {f.name} was traced inside checkify (checkify.checkify with nan_checks, say): "
                    f"the name returned can come from checkify's error, not from the NaN check the task asks "
                    f"for. The task is jax.jit(f)(*args) with jax_debug_nans on, whose FloatingPointError "
                    f"names the primitive. See {FLAGS}", "wrong-tool")
    if any(run.traced and not run.settings["jax_debug_nans"] for run in runs):
        checks.fail(f"{what}: besides the checked call, {f.name} was also traced with NaN checking off (a "
                    f"jit of checkify(f), say): the name returned can come from that other program. The "
                    f"task is the one jax.jit(f) call with jax_debug_nans on, whose error names the "
                    f"primitive. See {FLAGS}", "wrong-tool")


def _check_name(got, want, *, what, why):
    if got != want:
        checks.fail(f"{what} returned {got!r}; expected {want!r}: {why}")


def test_names_the_primitive_that_made_the_first_nan(exercise):
    f = _watched(spread)
    before = _setting_now()
    got = _origin(exercise, f, np.array([3.0, 1.0], np.float32), what="nan_origin(spread, [3, 1])")
    _check_setting(before, what="nan_origin(spread, [3, 1])")
    _check_ran_checked(f, what="nan_origin(spread, [3, 1])")
    _check_name(got, "sqrt", what="nan_origin(spread, [3, 1])",
                why="sqrt(1 - 2) is the first NaN; log and * only pass it on. Return the name of the "
                    "primitive FloatingPointError's message ends with, nothing else.")


def test_another_function_another_primitive(exercise):
    f = _watched(standardise)
    before = _setting_now()
    got = _origin(exercise, f, np.full(3, 2.0, np.float32), what="nan_origin(standardise, [2, 2, 2])")
    _check_setting(before, what="nan_origin(standardise, [2, 2, 2])")
    _check_ran_checked(f, what="nan_origin(standardise, [2, 2, 2])")
    _check_name(got, "div", what="nan_origin(standardise, [2, 2, 2])",
                why="(x - mean) / std is 0 / 0 for a constant x, so the division is the first "
                    "primitive to make a NaN. Read the name from the error JAX raised for this call.")


def test_none_when_no_nan_appears(exercise):
    f = _watched(log_scale)
    before = _setting_now()
    got = _origin(exercise, f, np.array([0.0, 1.0], np.float32), what="nan_origin(log_scale, [0, 1])")
    _check_setting(before, what="nan_origin(log_scale, [0, 1])")
    _check_ran_checked(f, what="nan_origin(log_scale, [0, 1])")
    _check_name(got, None, what="nan_origin(log_scale, [0, 1])",
                why="log(0) is -inf, not NaN, so no primitive made a NaN and JAX raised nothing.")


def _run_ignoring_the_nan(exercise, f, x):
    try:
        exercise.nan_origin(f, x)
    except FloatingPointError:
        pass  # what it returns is the other checks' business; here only the setting counts


def test_leaves_the_setting_as_it_found_it(exercise):
    x = jnp.asarray(np.array([3.0, 1.0], np.float32))
    # From both starting values, set globally: "restoring" it to off turns it off for a caller
    # who had it on.
    checks.assert_leaves_setting(lambda: _run_ignoring_the_nan(exercise, _watched(spread).f, x), "jax_debug_nans",
                                 what="nan_origin(spread, [3, 1])", why=f"See {FLAGS}")
    with jax.debug_nans(True):  # a caller who already checks for NaNs keeps checking
        before = _setting_now()
        try:
            exercise.nan_origin(_watched(spread).f, x)
        except FloatingPointError:
            pass  # what it returns is the other checks' business; here only the setting counts
        _check_setting(before, what="nan_origin(spread, [3, 1]) called with jax_debug_nans already on")
    before = _setting_now()
    try:
        _origin(exercise, _watched(broken), np.ones(2, np.float32), what="nan_origin(broken, x)")
        raised = False
    except checks.KataFailure:
        raise
    except Exception:  # noqa: BLE001 - any error from f itself is the caller's to see
        raised = True
    _check_setting(before, what="nan_origin(f, x) for an f that raises a shape error while tracing")
    if not raised:
        checks.fail("nan_origin(broken, x) returned although broken fails with a shape error: let errors "
                    "other than the NaN report reach the caller.")
