"""Checks for pytree-1 (static_fields)."""

import re

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.linspace(-1.0, 1.0, 3, dtype=np.float32)
PYTREE_DOCS = f"See {checks.DOCS}/pytrees.html"


def _parts(seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(3, 4)).astype(np.float32), rng.normal(size=4).astype(np.float32)


def _layer(exercise, seed, activation):
    weight, bias = _parts(seed)
    return exercise.Layer(weight=jnp.asarray(weight), bias=jnp.asarray(bias), activation=activation)


def _expected(seed, activation, x=X):
    weight, bias = _parts(seed)
    y = x @ weight + bias
    return np.maximum(y, 0.0) if activation == "relu" else np.tanh(y)


def _apply(exercise, layer, x):
    """apply(layer, x); jit refusing the Layer fails with the lesson for what it refused."""
    try:
        return exercise.apply(layer, jnp.asarray(x))
    except TypeError as error:
        message = str(error)
        if "as an abstract array" not in message and "is not a valid JAX type" not in message:
            raise
        kind = re.search(r"of type <class '([\w.]+)'>", message)
        kind = kind.group(1).rsplit(".", 1)[-1] if kind else "?"
        path = re.search(r"at path (\S+?)\.?$", message.splitlines()[0])
        if kind == "str":
            checks.fail(f"jax.jit(apply) got the activation string as one of the Layer's leaves"
                        f"{f' (at {path.group(1)})' if path else ''}: Layer is a pytree now, but every "
                        f"field became a leaf, and jit traces leaves as arrays. A setting that picks the "
                        f"program (here, which activation) must be a static field, kept in the treedef. "
                        f"{PYTREE_DOCS}", "static-argument")
        checks.fail(f"jax.jit(apply) cannot take a {kind}: JAX does not know how to flatten it into "
                    f"arrays, so it cannot trace it. Only arrays and pytrees (tuples, lists, dicts, and "
                    f"classes registered with jax.tree_util) can be arguments of a jitted function. "
                    f"{PYTREE_DOCS}", "not-pytree")


def test_apply_runs_both_activations(exercise):
    for seed, activation in ((0, "relu"), (1, "tanh")):
        layer = _layer(exercise, seed, activation)
        checks.assert_close(_apply(exercise, layer, X), _expected(seed, activation), rtol=1e-5, atol=1e-6,
                            what=f"apply(Layer(..., activation={activation!r}), x)")


def test_layer_flattens_to_weight_and_bias(exercise):
    layer = _layer(exercise, 2, "relu")
    leaves, treedef = jax.tree.flatten(layer)
    if len(leaves) == 1 and leaves[0] is layer:
        checks.fail(f"jax.tree.leaves(layer) is [layer] itself: JAX treats an unregistered class as one "
                    f"opaque leaf, so jit, grad and tree.map cannot see the arrays inside it. Register "
                    f"Layer as a pytree. {PYTREE_DOCS}", "not-pytree")
    kinds = [type(leaf).__name__ for leaf in leaves]
    if any(isinstance(leaf, str) for leaf in leaves):
        checks.fail(f"Layer flattens to {len(leaves)} leaves ({', '.join(kinds)}), the activation string "
                    f"among them: a leaf is traced as an array. Declare the activation a static field, "
                    f"so it lives in the treedef. {PYTREE_DOCS}", "static-argument")
    shapes = [getattr(leaf, "shape", leaf) for leaf in leaves]
    if len(leaves) > 2:
        checks.fail(f"Layer flattens to {len(leaves)} leaves of shapes {shapes}: besides weight and bias, "
                    f"the activation is a leaf, so jit traces it as data and one program must hold every "
                    f"branch. Keep it out of the leaves, as a static field in the treedef. {PYTREE_DOCS}",
                    "static-argument")
    if len(leaves) != 2 or leaves[0] is not layer.weight or leaves[1] is not layer.bias:
        checks.fail(f"Layer flattens to leaves of shapes {shapes}; expected exactly [weight, bias], in "
                    f"that order (shapes [(3, 4), (4,)]). The data fields, in their declared order, are "
                    f"the leaves. {PYTREE_DOCS}", "not-pytree")
    other = jax.tree.structure(_layer(exercise, 3, "tanh"))
    if other == treedef:
        checks.fail("a relu Layer and a tanh Layer have the same treedef: the activation is not part of "
                    "the structure, so jit cannot tell them apart by its cache key. It belongs there as a "
                    f"static field. {PYTREE_DOCS}", "static-argument")
    doubled = jax.tree.map(lambda leaf: np.asarray(leaf) * 2, layer)
    if not isinstance(doubled, exercise.Layer) or getattr(doubled, "activation", None) != "relu":
        checks.fail(f"jax.tree.map(f, layer) returned {type(doubled).__name__} with activation "
                    f"{getattr(doubled, 'activation', None)!r}; expected a Layer that keeps activation "
                    f"'relu': unflattening must rebuild the class from its leaves and its static fields. "
                    f"{PYTREE_DOCS}", "not-pytree")
    checks.assert_close(np.asarray(doubled.weight), 2 * _parts(2)[0], what="jax.tree.map(2x, layer).weight")


def test_new_weights_reuse_the_program_a_new_activation_compiles(exercise):
    seeds = (4, 5, 6)
    layers = [_layer(exercise, seed, "relu") for seed in seeds]
    tanh = _layer(exercise, 7, "tanh")
    x = jnp.asarray(X)
    with checks.count_compiles() as first:
        _apply(exercise, layers[0], x)  # the one compile
    with checks.count_compiles() as log:
        outs = [_apply(exercise, layer, x) for layer in layers[1:]]
    checks.assert_compiles(
        log, what="apply()", calls="2 calls with new weights and biases of the same shapes", expected=0,
        warm_up=first,
        why="the weights reach the program as compile-time constants: the whole Layer is a static "
            "argument (hashed, not traced). Only the activation should be static; weight and bias "
            "must be traced leaves")
    checks.assert_one_program(
        lambda layer, v: _apply(exercise, layer, v), [(layer, x) for layer in layers[1:]], what="apply()",
        calls_text="two relu layers with new weights and biases", rtol=1e-5, atol=1e-6,
        expected=[_expected(seed, "relu") for seed in seeds[1:]],
        why="the weights reach the program as compile-time constants (the whole Layer static, or its "
            "arrays read as constants). Only the activation should be static; weight and bias must be "
            "traced leaves")
    for seed, out in zip(seeds[1:], outs):
        checks.assert_close(out, _expected(seed, "relu"), rtol=1e-5, atol=1e-6, what="apply(new relu layer, x)")
    with checks.count_compiles() as switched:
        out = _apply(exercise, tanh, x)
    if switched.count == 0:
        checks.fail("apply() did not compile again when the activation changed from 'relu' to 'tanh': "
                    "the activation reaches the program as data (a leaf), so one program serves both "
                    "and must carry every branch. A static field is part of jit's cache key: a new "
                    f"activation is a new, smaller program. {PYTREE_DOCS}", "static-argument")
    checks.assert_compiles(switched, what="apply()", calls="1 call with a new activation", expected=1,
                           why="only the activation changed, so exactly one new program is due")
    checks.assert_close(out, _expected(7, "tanh"), rtol=1e-5, atol=1e-6, what="apply(tanh layer, x)")
