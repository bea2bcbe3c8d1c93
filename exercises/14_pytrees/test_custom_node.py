"""Checks for pytree-3 (custom_node)."""

import re

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

DOCS = f"See {checks.DOCS}/custom_pytrees.html"
RNG = np.random.default_rng(3)
MEAN = RNG.normal(size=3).astype(np.float32)
LOG_STD = RNG.uniform(-0.5, 0.5, size=3).astype(np.float32)
X = RNG.normal(size=3).astype(np.float32)


def nll(g, x):
    return jnp.sum(g.log_std + 0.5 * ((x - g.mean) / jnp.exp(g.log_std)) ** 2)


def _nll_reference(mean, log_std, x):
    z = (x - mean) / np.exp(log_std)
    return np.sum(log_std + 0.5 * z ** 2, axis=-1), -z / np.exp(log_std), 1.0 - z ** 2


def _fields(g, what, mean, log_std, name):
    """g is a Gaussian holding these fields (a swapped or lost field fails here)."""
    if type(g).__name__ != "Gaussian":
        checks.fail(f"{what} returned a {type(g).__name__}, not a Gaussian: unflatten must rebuild the class "
                    f"itself. {DOCS}", "not-pytree")
    if getattr(g, "name", None) != name:
        checks.fail(f"{what} returned a Gaussian named {getattr(g, 'name', None)!r}; expected {name!r}: the "
                    f"name travels as auxiliary data, from flatten through the treedef to unflatten. {DOCS}",
                    "not-pytree")
    checks.assert_close({"mean": g.mean, "log_std": g.log_std}, {"mean": mean, "log_std": log_std},
                        rtol=1e-5, atol=1e-6, what=what,
                        hint="unflatten must hand each child back to the field flatten took it from, in "
                             "the same order.")


def _guard(what, thunk):
    """thunk(); JAX refusing the name as a leaf, or a leaf handed to NumPy, fails with its lesson."""
    try:
        return thunk()
    except jax.errors.TracerArrayConversionError:
        checks.fail(f"{what}: flatten or unflatten handed a traced child to NumPy. Under jit, grad and "
                    f"vmap the children are tracers: flatten returns them and unflatten stores them "
                    f"as they are, without converting. {DOCS}", "numpy-on-tracer")
    except TypeError as error:
        if "<class 'str'>" not in str(error):
            raise
        path = re.search(r"at path (\S+?)\.?$", str(error).splitlines()[0])
        at = f" (at {path.group(1)})" if path else ""
        checks.fail(f"{what}: JAX was handed the name string as a leaf{at}. "
                    f"Children are the arrays; the name is metadata and belongs in the auxiliary data, "
                    f"which the treedef keeps and jit treats as static. {DOCS}", "not-pytree")


def _same(held, made):
    """held is what the leaf function made, unconverted: its type, dtype and values."""
    return (type(held) is type(made) and getattr(held, "dtype", None) == getattr(made, "dtype", None)
            and np.array_equal(np.asarray(held), np.asarray(made)))


def test_flattens_to_mean_and_log_std_and_back(exercise):
    g = exercise.Gaussian(MEAN, LOG_STD, "prior")
    leaves, treedef = jax.tree.flatten(g)
    if len(leaves) == 1 and leaves[0] is g:
        checks.fail(f"jax.tree.leaves(g) is [g] itself: Gaussian is not registered as a pytree node. {DOCS}",
                    "not-pytree")
    if len(leaves) != 2 or any(isinstance(leaf, str) for leaf in leaves):
        checks.fail(f"a Gaussian flattens to {len(leaves)} leaves ({[type(leaf).__name__ for leaf in leaves]}); "
                    f"expected 2, mean then log_std: the name belongs in the auxiliary data, not among "
                    f"the children. {DOCS}", "not-pytree")
    checks.assert_close(leaves, [MEAN, LOG_STD], what="jax.tree.leaves(g)",
                        hint="The children come out in the order flatten lists them: mean, then log_std.")
    if jax.tree.structure(exercise.Gaussian(MEAN, LOG_STD, "posterior")) == treedef:
        checks.fail("two Gaussians with different names have the same treedef: the name is not in the "
                    f"auxiliary data, so jit cannot key its cache on it. {DOCS}", "not-pytree")
    rebuilt = jax.tree.unflatten(treedef, [MEAN * 2, LOG_STD * 2])
    _fields(rebuilt, "jax.tree.unflatten(treedef, [2 * mean, 2 * log_std])", MEAN * 2, LOG_STD * 2, "prior")
    # Tree utilities rebuild the class around whatever the leaves have become: here, shape tuples.
    try:
        shapes = jax.tree.map(np.shape, g)
        kept = (getattr(shapes, "mean", None), getattr(shapes, "log_std", None))
    except Exception as error:  # noqa: BLE001 - any conversion error in unflatten is the lesson
        kept = f"an error ({type(error).__name__})"
    if not (isinstance(kept, tuple)
            and all(type(k) is tuple and k == want for k, want in zip(kept, (MEAN.shape, LOG_STD.shape)))):
        checks.fail(f"jax.tree.map(np.shape, g) gave a Gaussian holding {kept!r}; expected the two shape "
                    f"tuples, {MEAN.shape} and {LOG_STD.shape}, exactly as the leaf function returned them. "
                    f"unflatten converts or checks its children, but JAX and tree utilities rebuild a node "
                    f"from whatever the leaves are at that point (shapes, None, ShapeDtypeStructs, "
                    f"placeholder objects, tracers): it must store them as they are. {DOCS}", "not-pytree")
    # ... and here, what other leaf functions return: arrays of any dtype (NumPy's and JAX's: mixed precision,
    # an argmax), Python numbers, lists.
    for made_of, leaf_fn in (("float16 arrays", lambda a: np.asarray(a).astype(np.float16)),
                             ("bfloat16 jax arrays", lambda a: jnp.asarray(a, jnp.bfloat16)),
                             ("int32 jax arrays", lambda a: jnp.asarray(a).astype(jnp.int32)),
                             ("float32 NumPy arrays", lambda a: np.asarray(a, np.float32) * 2),
                             ("Python floats", lambda a: float(np.asarray(a).sum())),
                             ("Python ints", lambda a: int(np.asarray(a).size)),
                             ("Python lists", lambda a: np.asarray(a).tolist())):
        made = []
        mapped = jax.tree.map(lambda leaf: made.append(leaf_fn(leaf)) or made[-1], g)
        held = (getattr(mapped, "mean", None), getattr(mapped, "log_std", None))
        if not all(_same(h, want) for h, want in zip(held, made)):
            checks.fail(f"a leaf function returning {made_of} gave a Gaussian holding "
                        f"{[type(h).__name__ + (f' {h.dtype}' if hasattr(h, 'dtype') else '') for h in held]}, "
                        f"not the two values it returned as they were: unflatten converted its children. A node holds "
                        f"whatever its leaves become (another dtype, numbers, tracers, batched values); "
                        f"store them as they are. {DOCS}", "not-pytree")


def test_through_jit_with_the_name_static(exercise):
    shift = jax.jit(lambda g, delta: exercise.Gaussian(g.mean + delta, g.log_std, g.name))
    g = exercise.Gaussian(jnp.asarray(MEAN), jnp.asarray(LOG_STD), "prior")
    with checks.count_compiles() as first:
        out = _guard("jax.jit(shift)(g, 1.0)", lambda: shift(g, jnp.float32(1.0)))
    _fields(out, "jax.jit(shift)(g, 1.0)", MEAN + 1.0, LOG_STD, "prior")
    other = exercise.Gaussian(jnp.asarray(LOG_STD), jnp.asarray(MEAN), "prior")
    with checks.count_compiles() as log:
        out = shift(other, jnp.float32(-2.0))
    checks.assert_compiles(log, what="jax.jit(shift)", calls="a Gaussian with new arrays of the same shapes",
                           expected=0, warm_up=first,
                           why="the arrays should be children, traced as data, not part of the aux data")
    _fields(out, "jax.jit(shift)(another g, -2.0)", LOG_STD - 2.0, MEAN, "prior")
    with checks.count_compiles() as renamed:
        out = shift(exercise.Gaussian(jnp.asarray(MEAN), jnp.asarray(LOG_STD), "posterior"), jnp.float32(1.0))
    checks.assert_compiles(renamed, what="jax.jit(shift)", calls="a Gaussian with a new name", expected=1,
                           why="the name is auxiliary data: static, so a new name is a new program")
    _fields(out, "jax.jit(shift)(g named 'posterior', 1.0)", MEAN + 1.0, LOG_STD, "posterior")


def test_grad_returns_a_gaussian_of_gradients(exercise):
    g = exercise.Gaussian(jnp.asarray(MEAN), jnp.asarray(LOG_STD), "prior")
    grads = _guard("jax.grad(nll)(g, x)", lambda: jax.jit(jax.grad(nll))(g, jnp.asarray(X)))
    _, d_mean, d_log_std = _nll_reference(MEAN, LOG_STD, X)
    _fields(grads, "jax.grad(nll)(g, x)", d_mean, d_log_std, "prior")


def test_vmap_batches_gaussians_in_and_out(exercise):
    means = RNG.normal(size=(4, 3)).astype(np.float32)
    log_stds = RNG.uniform(-0.5, 0.5, size=(4, 3)).astype(np.float32)
    batch = exercise.Gaussian(jnp.asarray(means), jnp.asarray(log_stds), "batch")
    got = _guard("jax.vmap(nll, in_axes=(0, None))(batch, x)",
                 lambda: jax.jit(jax.vmap(nll, in_axes=(0, None)))(batch, jnp.asarray(X)))
    checks.assert_close(got, _nll_reference(means, log_stds, X)[0], rtol=1e-5, atol=1e-5,
                        what="jax.vmap(nll, in_axes=(0, None))(batch of 4 Gaussians, x)")
    made = _guard("jax.vmap(make a Gaussian)(means)",
                  lambda: jax.jit(jax.vmap(lambda m: exercise.Gaussian(m, jnp.zeros_like(m), "made")))(means))
    _fields(made, "jax.vmap(lambda m: Gaussian(m, zeros_like(m), 'made'))(means)", means,
            np.zeros_like(means), "made")


def test_key_paths_name_the_fields(exercise):
    g = exercise.Gaussian(MEAN, LOG_STD, "prior")
    paths = [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(g)[0]]
    if paths != [".mean", ".log_std"]:
        hint = ("Gaussian was registered without keys, so JAX numbers the children: register it with "
                "jax.tree_util.register_pytree_with_keys and a flatten that pairs each child with a key."
                if any(re.search(r"flat index", p) for p in paths) else
                "Pair each child with jax.tree_util.GetAttrKey and its attribute's name.")
        checks.fail(f"the key paths of a Gaussian's leaves read {paths}; expected ['.mean', '.log_std']. "
                    f"{hint} Key paths are what tree_map_with_path, keystr and JAX's error messages show. "
                    f"{DOCS}", "wrong-tool")
