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
        out = jax.block_until_ready(exercise.sgd_update(params, grads, LR))
    except (KeyError, IndexError, TypeError) as error:
        checks.fail(f"sgd_update(params, grads, lr) on a nested tree ({{'encoder': {{'kernel': ...}}, "
                    f"'head': [..., ...]}}) raised {type(error).__name__}: {error}. It must update any "
                    f"pytree, not just a dict with the keys you have seen: jax.tree.map(lambda p, g: "
                    f"p - lr * g, params, grads).")
    checks.assert_close(out, jax.tree.map(lambda p, g: p - LR * g, host_params, host_grads),
                        what="sgd_update(nested params, grads, lr)",
                        hint="Update every leaf of whatever pytree you get: jax.tree.map(lambda p, g: "
                             "p - lr * g, params, grads).")
    if not all(leaf.is_deleted() for leaf in jax.tree.leaves(params)):
        checks.fail("after sgd_update on a nested params tree some params leaves are still alive: "
                    "donate params (donate_argnums=0) in the jitted update.")
    if any(leaf.is_deleted() for leaf in jax.tree.leaves(grads)):
        checks.fail("sgd_update on a nested tree deleted some grads leaves: donate only params.")
