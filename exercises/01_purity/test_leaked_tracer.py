"""Checks for purity-5 (leaked_tracer)."""

import re

import jax
import jax.extend
import numpy as np

from grader import checks

LR = 0.1
HOST_CALLS = {"debug_callback", "pure_callback", "io_callback"}
LESSON = ("While jit traces sgd_step, its values are tracers that only mean something inside that "
          "trace; stored in a global (or an outer list), the tracer outlives the trace, and the "
          "compiled program never runs the Python body again to refresh it anyway. Hand the loss "
          "back as an output of the jitted function, next to the new weights.")
LINK = f"See {checks.DOCS}/errors.html#jax.errors.UnexpectedTracerError"


def _data(seed, n=6, d=3):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d)).astype(np.float32)
    y = (x @ rng.normal(size=d) + 0.1 * rng.normal(size=n)).astype(np.float32)
    return x, y


def _reference(w, x, y, steps):
    w, losses = w.astype(np.float64), []
    for _ in range(steps):
        err = x @ w - y
        losses.append(np.mean(err ** 2))
        w = w - LR * 2.0 * x.T @ err / len(y)
    return w.astype(np.float32), np.array(losses, np.float32)


def _fit(exercise, w, x, y, steps):
    """fit(w, x, y, steps); a leaked tracer in use fails with its lesson."""
    try:
        return exercise.fit(w, x, y, steps)
    except jax.errors.UnexpectedTracerError:
        checks.fail(f"fit(w, x, y, {steps}) raised UnexpectedTracerError: it used a tracer that escaped "
                    f"from the jitted step. {LESSON} {LINK}", "leaked-tracer")


def _tracers_in_globals(exercise):
    """Module globals holding a tracer, directly or inside a list, tuple or dict."""
    found = []
    for name, value in vars(exercise.module).items():
        inside = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
        if isinstance(value, jax.core.Tracer) or any(isinstance(v, jax.core.Tracer) for v in inside):
            found.append(name)
    return found


def _fit_checking_leaks(exercise, w, x, y, steps):
    """fit under jax.checking_leaks(): a tracer still referenced when its trace ends is a failure."""
    try:
        with jax.checking_leaks():
            return _fit(exercise, w, x, y, steps)
    except Exception as error:  # noqa: BLE001 - checking_leaks reports a leak as a plain Exception
        if "Leaked trace" not in str(error):
            raise
        held = re.findall(r"is referred to by ([\w.]+)", str(error))
        where = f" (it is held by `{held[-1].rsplit('.', 1)[-1]}`)" if held else ""
        checks.fail(f"fit(w, x, y, {steps}) leaks a tracer: jax.checking_leaks() found a value of the "
                    f"jitted step still referenced after its trace ended{where}. {LESSON} {LINK}",
                    "leaked-tracer")


def test_fit_returns_the_loss_before_every_step(exercise):
    for seed, steps in ((0, 4), (1, 3)):
        x, y = _data(seed)
        w0 = np.zeros(3, np.float32)
        want_w, want_losses = _reference(w0, x, y, steps)
        out = _fit(exercise, w0, x, y, steps)
        if not isinstance(out, tuple) or len(out) != 2:
            checks.fail(f"fit(w, x, y, {steps}) returned {type(out).__name__}; expected a pair "
                        f"(final weights, losses).", "wrong-shape")
        w, losses = out
        checks.assert_shape_dtype(losses, (steps,), np.float32, what=f"fit(w, x, y, {steps})'s losses",
                                  hint="One float32 loss per step, stacked in step order.")
        checks.assert_close(losses, want_losses, rtol=1e-4, atol=1e-5,
                            what=f"fit(w, x, y, {steps})'s losses",
                            hint="losses[i] is the loss of the weights the i-th step starts from "
                                 "(computed before that step's update).")
        checks.assert_close(w, want_w, rtol=1e-4, atol=1e-5, what=f"fit(w, x, y, {steps})'s weights")


def test_steps_compile_once_without_leaking(exercise):
    x, y = _data(2, n=7)  # a shape no other check uses: the first fit's compiles are counted too
    w0, w1 = np.zeros(3, np.float32), np.full(3, 0.5, np.float32)
    with checks.count_compiles() as first:
        _fit(exercise, w0, x, y, 3)  # the one compile
    checks.assert_compiles(
        first, what="fit()", calls="its first fit of 3 steps", at_most=1,
        why="one program must serve every step: a step number (or anything else that changes from "
            "step to step) handed to the jitted step as a static argument, or a new jitted function "
            "per step, compiles a new program for each step")
    with checks.count_compiles() as log:
        _, losses = _fit(exercise, w1, x, y, 3)
    checks.assert_compiles(
        log, what="fit()", calls="a second fit with new starting weights and the same shapes",
        expected=0, warm_up=first,
        why="the step is traced again for new values: is a new jitted function created for each "
            "step or call (jax.jit of a lambda, or of a function defined inside fit)? Jit the step "
            "once, where it is defined")
    checks.assert_close(losses, _reference(w1, x, y, 3)[1], rtol=1e-4, atol=1e-5,
                        what="fit(w1, x, y, 3)'s losses")
    leaked = _tracers_in_globals(exercise)
    if leaked:
        checks.fail(f"after fit, the global {', '.join(f'`{n}`' for n in leaked)} holds a tracer from "
                    f"the jitted step's trace, not a value. {LESSON} {LINK}", "leaked-tracer")
    # A new shape traces the step once more, this time with leak checking on.
    x5, y5 = _data(3, n=5)
    _fit_checking_leaks(exercise, w0, x5, y5, 2)
    # New starting weights are new data: the fit traces to the one program, whose steps compute them.
    checks.assert_one_program(
        lambda w: exercise.fit(w, x, y, 3), [(w0,), (w1,)], what="fit(w, x, y, 3)",
        calls_text="two starting weights", expected=[_reference(w, x, y, 3) for w in (w0, w1)],
        rtol=1e-4, atol=1e-5,
        why="the starting weights (or a step number) reach the jitted step as compile-time constants: "
            "pass them as ordinary traced arguments")


def _trace_fit(exercise, w0, x, y):
    """fit's whole program, 2 steps; a step output pulled into Python fails with its lesson."""
    try:
        return checks.program_of(exercise.fit, w0, x, y, steps=2, what="fit")
    except checks.KataFailure as failure:
        if failure.code not in ("traced-value", "numpy-on-tracer"):
            raise
        checks.fail(f"fit turns a step's output into a Python or NumPy value (float(loss), loss.item(), "
                    f"np.asarray(loss), an `if` on it): {str(failure).split(': ', 1)[-1].split('.')[0]}. "
                    f"Every step then waits for the device and copies its loss to the host. The step's "
                    f"outputs are already arrays: keep them as JAX arrays and stack them. {LINK}",
                    "host-transfer")


def _loss_work_apart(program, w_shape):
    """Top-level calls in fit's program that compute with the data (a matmul) but return no new weights."""
    apart = []
    for eqn in program.jaxpr.jaxpr.eqns:
        inside = [eqn.primitive.name] + [name for sub in jax.extend.core.jaxprs_in_params(eqn.params)
                                         for name in checks.Program(sub).primitives()]
        if "dot_general" in inside and not any(tuple(v.aval.shape) == w_shape for v in eqn.outvars):
            name = eqn.params.get("name") or eqn.primitive.name
            apart += [name] if name not in apart else []
    return apart


def test_losses_leave_the_program_as_outputs(exercise):
    x, y = _data(4)
    w0 = np.zeros(3, np.float32)
    _fit(exercise, w0, x, y, 2)
    program = _trace_fit(exercise, w0, x, y)
    checks.assert_not_uses(
        program, HOST_CALLS, what="fit(w, x, y, 2)", code="host-transfer",
        why="The loss travels to the host through a callback, step by step, and comes back "
            "through a Python list: a host round trip that also waits for the device. A jitted "
            "function's outputs are the way out: return the loss alongside the weights.")
    apart = _loss_work_apart(program, w0.shape)
    if apart:
        checks.fail(f"fit computes the loss apart from the step that updates the weights ({', '.join(apart)} "
                    f"in its program, returning no new weights): a second forward pass per step, op by op "
                    f"or in another compiled function, while the jitted step already computes that loss to "
                    f"differentiate it. Hand the loss back from the step itself. {LINK}", "repeated-work")
    checks.assert_computes(program, _reference(w0, x, y, 2), what="fit(w, x, y, 2)", rtol=1e-4, atol=1e-5)
    # What the program shows is what a call runs: the step's program, and nothing op by op beside it.
    checks.assert_called_as_traced(exercise.fit, w0, x, y, steps=2, what="fit(w, x, y, 2)", program=program,
                                   nothing_else=True)
