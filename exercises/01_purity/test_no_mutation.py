"""Checks for purity-2 (no_mutation)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

PARAMS = {"w": np.array([1.0, -2.0, 3.0], np.float32), "b": np.array([0.5], np.float32)}
GRADS = {"w": np.array([0.1, 0.2, -0.3], np.float32), "b": np.array([1.0], np.float32)}
LR = 0.5
EXPECTED = {k: PARAMS[k] - LR * GRADS[k] for k in PARAMS}
# Another dict of parameters, other names and sizes: any dict of arrays works the same way.
OTHER_PARAMS = {"kernel": np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), "scale": np.array(2.0, np.float32),
                "bias": np.array([-1.0, 0.0, 1.0], np.float32)}
OTHER_GRADS = {"kernel": np.array([[0.5, -0.5], [1.0, 2.0]], np.float32), "scale": np.array(-4.0, np.float32),
               "bias": np.array([2.0, 2.0, 2.0], np.float32)}
OTHER_LR = 0.25
PURE = ("A pure function leaves what the caller passed exactly as it was: build and return a new dict "
        "instead of writing into the one you were given.")


def _inputs(params=PARAMS, grads=GRADS):
    return {k: jnp.asarray(v) for k, v in params.items()}, {k: jnp.asarray(v) for k, v in grads.items()}


def _check_untouched(given, original, *, name, after):
    """The caller's dict `given` still holds the same keys and values as `original`."""
    same = set(given) == set(original) and all(
        np.array_equal(np.asarray(given[k]), original[k]) for k in original)
    if not same:
        changed = sorted(k for k in set(given) | set(original)
                         if k not in given or k not in original
                         or not np.array_equal(np.asarray(given[k]), original[k]))
        checks.fail(f"after {after}, the caller's `{name}` dict has changed (keys {changed}): sgd_update "
                    f"wrote into the dict it was given. {PURE} See {checks.DOCS}/notebooks/"
                    f"Common_Gotchas_in_JAX.html#pure-functions", "mutates-input")


def test_leaves_the_callers_params_untouched(exercise):
    # NumPy arrays, as a caller might pass: they, unlike jax.Arrays, can be changed in place.
    params = {k: v.copy() for k, v in PARAMS.items()}
    grads = {k: v.copy() for k, v in GRADS.items()}
    new = checks.assert_not_mutated(exercise.sgd_update, params, grads, LR, what="sgd_update(params, grads, lr)")
    checks.assert_close(new, EXPECTED, what="sgd_update(params, grads, lr)")
    # Another caller, with dicts of its own: the first caller's dicts must stay as they were after it too
    # (assert_not_mutated compares every input it was handed again after each later call, and at the end).
    other_params = {k: v.copy() for k, v in OTHER_PARAMS.items()}
    other_grads = {k: v.copy() for k, v in OTHER_GRADS.items()}
    checks.assert_not_mutated(exercise.sgd_update, other_params, other_grads, OTHER_LR,
                              what="a second sgd_update(params, grads, lr), on other dicts")


def test_same_inputs_give_the_same_result_twice(exercise):
    params, grads = _inputs(OTHER_PARAMS, OTHER_GRADS)
    expected = {k: OTHER_PARAMS[k] - OTHER_LR * OTHER_GRADS[k] for k in OTHER_PARAMS}
    # Compared again at the end of the check: the dicts of both calls must still be as they were.
    checks.keep_untouched(params, grads, what="sgd_update(params, grads, lr) (called twice on the same dicts)")
    first = jax.tree.map(np.asarray, exercise.sgd_update(params, grads, OTHER_LR))
    second = jax.tree.map(np.asarray, exercise.sgd_update(params, grads, OTHER_LR))
    if jax.tree.structure(first) != jax.tree.structure(second):
        differs = "a result of another structure"
    else:
        paths = [(jax.tree_util.keystr(path), a, b) for (path, a), b in
                 zip(jax.tree_util.tree_flatten_with_path(first)[0], jax.tree.leaves(second))
                 if not np.allclose(a, b)]
        differs = f"{checks.short(paths[0][2])} for {paths[0][0]} where the first returned " \
                  f"{checks.short(paths[0][1])}" if paths else ""
    if differs:
        checks.fail(f"a second sgd_update(params, grads, lr) with the very same inputs returned {differs}: "
                    f"the first call changed something the second one read (the dicts it was given). "
                    f"{PURE}", "mutates-input")
    checks.assert_close(first, expected, what="sgd_update(params, grads, lr) on a dict with keys "
                                              f"{sorted(OTHER_PARAMS)}")


def test_result_follows_the_values_handed_in(exercise):
    # The caller's own dicts, changed by the caller between calls: a pure function's result depends only
    # on the values it is handed, not on which objects hold them.
    params = {k: v.copy() for k, v in PARAMS.items()}
    grads = {k: v.copy() for k, v in GRADS.items()}
    first = exercise.sgd_update(params, grads, LR)
    _check_untouched(params, PARAMS, name="params", after="a call")
    _check_untouched(grads, GRADS, name="grads", after="a call")
    checks.assert_close(first, EXPECTED, what="sgd_update(params, grads, lr)")
    params["w"] += 1.0  # in place: the same array object holds new values
    grads["b"] = GRADS["b"] * 2  # a new array under a key of the same dict
    changed = ({k: v.copy() for k, v in params.items()}, {k: v.copy() for k, v in grads.items()})
    expected = {k: params[k] - LR * grads[k] for k in params}
    again = jax.tree.map(np.asarray, exercise.sgd_update(params, grads, LR))
    _check_untouched(params, changed[0], name="params", after="a second call on the caller's changed dicts")
    _check_untouched(grads, changed[1], name="grads", after="a second call on the caller's changed dicts")
    stale = [k for k in expected if k in again and k in first and not np.allclose(again[k], expected[k])
             and np.allclose(again[k], np.asarray(first[k]))]
    if stale:
        checks.fail(f"the caller changed the values in its dicts and called sgd_update(params, grads, lr) again "
                    f"with the same dicts: {stale} came back exactly as the first call returned them, where "
                    f"{checks.short(expected[stale[0]])} was due for {stale[0]!r}. A pure function's result depends "
                    f"only on the values it is handed; a result kept from an earlier call and found again by the "
                    f"objects' identity is stale once the caller changes them. See {checks.DOCS}/notebooks/"
                    f"Common_Gotchas_in_JAX.html#pure-functions", "keeps-state")
    checks.assert_close(again, expected, what="sgd_update(params, grads, lr) on the caller's changed dicts")


def test_jitted_and_plain_calls_agree(exercise):
    params, grads = _inputs()
    compiled = jax.jit(exercise.sgd_update)(params, grads, LR)
    checks.assert_close(compiled, EXPECTED, what="jax.jit(sgd_update)(params, grads, lr)")
    plain = exercise.sgd_update(params, grads, LR)
    checks.assert_close(plain, EXPECTED, what="sgd_update(params, grads, lr) without jit",
                        hint="Compiled and plain calls must agree.")
    # Under jit a write into the dict lands on jit's private copy and vanishes; without jit it
    # reaches the caller. Code that mutates its inputs behaves differently in the two.
    _check_untouched(params, PARAMS, name="params", after="a jitted and a plain call")
    _check_untouched(grads, GRADS, name="grads", after="a jitted and a plain call")
