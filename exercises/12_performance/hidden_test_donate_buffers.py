"""Hidden checks for perf-5 (donate_buffers): a nested pytree and learning rate the visible checks do not show."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

LR = 0.05


def _host_tree(seed):
    rng = np.random.default_rng(seed)
    return {"encoder": {"kernel": rng.normal(size=(3, 5)).astype(np.float32)},
            "head": [rng.normal(size=5).astype(np.float32), rng.normal(size=2).astype(np.float32)]}


def test_updates_and_donates_a_nested_tree(exercise):
    host_params, host_grads = _host_tree(8), _host_tree(9)
    params, grads = jax.tree.map(jnp.asarray, host_params), jax.tree.map(jnp.asarray, host_grads)
    try:
        out = checks.assert_donated(lambda: jax.block_until_ready(exercise.sgd_update(params, grads, LR)),
                                    params, programs=1, what="sgd_update(nested params, grads, lr)",
                                    hint="Donate the whole params tree, whatever its structure.")
    except (KeyError, IndexError, TypeError) as error:
        checks.fail(f"sgd_update(params, grads, lr) on a nested tree ({{'encoder': {{'kernel': ...}}, "
                    f"'head': [..., ...]}}) raised {type(error).__name__}: {error}. It must update any "
                    f"pytree, not just a dict with the keys you have seen: map the update over every leaf "
                    f"of params and grads together.", "wrong-shape")
    checks.assert_close(out, jax.tree.map(lambda p, g: p - LR * g, host_params, host_grads),
                        what="sgd_update(nested params, grads, lr)",
                        hint="Update every leaf of whatever pytree you get, not only the keys you have seen.")
    if any(leaf.is_deleted() for leaf in jax.tree.leaves(grads)):
        checks.fail("sgd_update on a nested tree deleted some grads leaves: donate only params.", "not-donated")
