"""Checks for perf-5 (donate_buffers)."""

import warnings

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

FAQ = f"{checks.DOCS}/faq.html#buffer-donation"
LR = 0.5


def _host_tree():
    rng = np.random.default_rng(3)
    params = {"w": rng.normal(size=(4, 3)).astype(np.float32), "b": rng.normal(size=3).astype(np.float32)}
    grads = {"w": rng.normal(size=(4, 3)).astype(np.float32), "b": rng.normal(size=3).astype(np.float32)}
    return params, grads


def _device_tree():
    params, grads = _host_tree()
    return jax.tree.map(jnp.asarray, params), jax.tree.map(jnp.asarray, grads)


def _expected():
    params, grads = _host_tree()
    return jax.tree.map(lambda p, g: p - LR * g, params, grads)


def _update(exercise, params, grads):
    """Call sgd_update, recording JAX's warnings about donations it could not use."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = exercise.sgd_update(params, grads, LR)
        jax.block_until_ready(out)
    unusable = [str(w.message).splitlines()[0] for w in caught if "donated buffers" in str(w.message)]
    return out, unusable


def test_update_values(exercise):
    params, grads = _device_tree()
    out, _ = _update(exercise, params, grads)
    checks.assert_close(out, _expected(),
                        what="sgd_update(params, grads, lr)",
                        hint="Each leaf of the result is params_leaf - lr * grads_leaf.")


def test_params_buffers_are_donated(exercise):
    # Donated means the compiled update wrote its output into params' memory: deleted inputs alone
    # (x.delete() after a plain jitted call) free the memory only after it was needed twice.
    params, grads = _device_tree()
    checks.assert_donated(lambda: _update(exercise, params, grads)[0], params, programs=1,
                          what="sgd_update(params, grads, lr)",
                          hint="Donation is an option of jax.jit naming the argument the caller will "
                               "never read again: here params, whose leaves the new params can replace.")


def test_grads_are_left_alone(exercise):
    params, grads = _device_tree()
    _, unusable = _update(exercise, params, grads)
    deleted = [name for name, leaf in grads.items() if leaf.is_deleted()]
    if deleted:
        checks.fail(f"sgd_update deleted the grads leaves {deleted}: they were donated (or deleted), but "
                    "the caller may still need them (for logging, momentum...). Donate only params. "
                    f"See {FAQ}", "not-donated")
    if unusable:
        checks.fail(f"JAX warned: {unusable[0]}. An argument was donated although no output could "
                    "take its buffer (every output already reuses a params buffer), so the "
                    f"donation did nothing. Donate only params. See {FAQ}", "not-donated")


def test_the_update_is_one_jitted_call(exercise):
    params, grads = _device_tree()
    checks.assert_jitted(exercise.sgd_update, params, grads, LR, what="sgd_update(params, grads, lr)",
                         entirely=True, single=True, expected=_expected())


def test_every_step_reuses_one_program(exercise):
    # A training loop: params = sgd_update(params, grads, lr), step after step, same shapes, same lr.
    params, grads = _device_tree()
    state = {"params": params}

    def step():
        state["params"] = jax.block_until_ready(exercise.sgd_update(state["params"], grads, LR))

    checks.assert_reuses_program(step, what="sgd_update(params, grads, lr)",
                                 calls="2 more training steps with the same shapes and lr",
                                 why="Jit the update once, outside the call (a decorated function, "
                                     "or a jitted function made at import), and call that.")
