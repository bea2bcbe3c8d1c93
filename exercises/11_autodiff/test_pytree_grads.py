"""Checks for grad-4 (pytree_grads)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

RNG = np.random.default_rng(1)
X = RNG.standard_normal((6, 3)).astype(np.float32)
Y = RNG.standard_normal((6, 2)).astype(np.float32)
PARAMS = {"w": RNG.standard_normal((3, 2)).astype(np.float32), "b": np.array([0.3, -0.2], np.float32)}
LR = 0.1


def _loss64(params):
    # The same loss, in float64 NumPy: an independent reference for finite differences.
    x, y = X.astype(np.float64), Y.astype(np.float64)
    return np.mean((x @ params["w"] + params["b"] - y) ** 2)


def _finite_difference_grads(h=1e-6):
    base = {k: v.astype(np.float64) for k, v in PARAMS.items()}
    grads = {}
    for name, value in base.items():
        grad = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            up = {k: v.copy() for k, v in base.items()}
            down = {k: v.copy() for k, v in base.items()}
            up[name][index] += h
            down[name][index] -= h
            grad[index] = (_loss64(up) - _loss64(down)) / (2 * h)
        grads[name] = grad.astype(np.float32)
    return grads


FD_GRADS = _finite_difference_grads()


def _params():
    return {k: jnp.asarray(v) for k, v in PARAMS.items()}


def test_gradient_has_the_structure_of_params(exercise):
    grads = exercise.loss_grads(_params(), jnp.asarray(X), jnp.asarray(Y))
    if jax.tree.structure(grads) != jax.tree.structure(PARAMS):
        checks.fail(f"loss_grads returned a pytree with structure {jax.tree.structure(grads)}; "
                    f"expected the structure of params, {jax.tree.structure(PARAMS)}. jax.grad "
                    f"differentiates with respect to the whole first argument, the params dict, and "
                    f"returns a dict like it. See {checks.DOCS}/automatic-differentiation.html",
                    "wrong-shape")
    for name in PARAMS:
        checks.assert_shape_dtype(grads[name], PARAMS[name].shape, np.float32, what=f"loss_grads(...)['{name}']",
                                  hint="Each gradient has the shape of its parameter.")


def test_gradient_matches_finite_differences(exercise):
    grads = exercise.loss_grads(_params(), jnp.asarray(X), jnp.asarray(Y))
    # Float64 central differences are exact to ~1e-9 here, jax.grad in float32 to ~1e-6: a
    # float32 finite difference (off by ~1e-3) cannot pass.
    checks.assert_close(grads, FD_GRADS, what="loss_grads(params, x, y)", rtol=2e-5, atol=2e-6,
                        hint="Central finite differences of the loss disagree with it: differentiate "
                             "`loss` with respect to params (argument 0) with jax.grad.")


def test_gradient_costs_one_backward_pass(exercise):
    # Reverse mode pulls the loss's one output back through the model once: its program creates a
    # few arrays the size of params, x and y. Forward mode pushes one direction per parameter
    # entry, one after another or at once (jacfwd): 9 times that for these 8 entries, 700 times for
    # 264. Weighed against the check's own jax.grad at both sizes, with room for jacrev's basis.
    rng = np.random.default_rng(5)
    for n_in, n_out in ((3, 2), (32, 8)):
        x, y = (rng.standard_normal((6, n)).astype(np.float32) for n in (n_in, n_out))
        params = {"w": rng.standard_normal((n_in, n_out)).astype(np.float32), "b": np.zeros(n_out, np.float32)}
        inputs = (jax.tree.map(jnp.asarray, params), jnp.asarray(x), jnp.asarray(y))
        program = checks.program_of(exercise.loss_grads, *inputs, what="loss_grads")
        reference = checks.program_of(jax.grad(_loss_like_the_model), *inputs, what="jax.grad(loss)")
        checks.assert_computes(program, reference.values(), what="loss_grads(params, x, y)", rtol=1e-4, atol=1e-5)
        checks.assert_no_callbacks(program, what="loss_grads(params, x, y)")  # host work weighs nothing here
        entries = sum(v.size for v in params.values())
        if program.has("while"):
            checks.fail("loss_grads computes the gradient in a while loop, whose trip count its program does "
                        "not show, so the passes it makes cannot be weighed: take it with jax.grad, one "
                        "reverse-mode pass.", "wrong-tool")
        work, limit = program.work(), 2 * reference.work()
        if work > limit:
            checks.fail(f"loss_grads creates {work} array elements in all for the gradient of a scalar loss "
                        f"over {entries} parameter entries; one reverse-mode pass over the whole params tree "
                        f"creates {reference.work()}. It pushes directions through the model (forward mode: "
                        f"jax.jvp or jax.jacfwd, one per entry, at once or one after another) for some or "
                        f"all of the entries. jax.grad pulls the loss's single output back once, whatever the "
                        f"number of parameters. See {checks.DOCS}/notebooks/autodiff_cookbook.html",
                        "wrong-tool")


def _loss_like_the_model(params, x, y):  # the stub's loss, as the check's own reference
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def test_sgd_step_updates_every_leaf_downhill(exercise):
    # New params come back; the caller's params dict stays as it was.
    new = checks.assert_not_mutated(exercise.sgd_step, _params(), jnp.asarray(X), jnp.asarray(Y), LR,
                                    what=f"sgd_step(params, x, y, lr={LR})")
    expected = {k: PARAMS[k] - LR * FD_GRADS[k] for k in PARAMS}
    checks.assert_close(new, expected, what=f"sgd_step(params, x, y, lr={LR})", rtol=2e-5, atol=2e-6,
                        hint="Every leaf moves against its gradient: p - lr * g, the parameter and "
                             "its gradient taken from the same place in the two trees.")
    before, after = _loss64(PARAMS), _loss64({k: np.asarray(v, np.float64) for k, v in new.items()})
    if not after < before:
        checks.fail(f"one sgd_step raised the loss from {before:.4f} to {after:.4f}; a small step "
                    f"against the gradient lowers it. Subtract lr * grad, do not add it.")


def test_follows_loss_for_any_params_tree(exercise):
    # Another loss, over a nested params tree: jax.grad of loss follows it and tree.map updates
    # every leaf, however deep; a gradient formula written by hand, or an update that names the
    # leaves, does not. A new tree structure, so nothing traced before is reused.
    rng = np.random.default_rng(8)

    # The model's own params tree first (nothing in this check has traced it yet)...
    flat = {"w": rng.standard_normal((3, 2)).astype(np.float32), "b": rng.standard_normal(2).astype(np.float32)}

    def another_flat(params, x, y):
        return jnp.sum(jnp.sin(x @ params["w"])) + jnp.sum(params["b"] ** 2) * jnp.mean(y)

    with checks.swap_function(exercise, "loss", another_flat):  # traced and on arrays: it follows both
        outs = checks.both_ways(exercise.loss_grads, jax.tree.map(jnp.asarray, flat), jnp.asarray(X), jnp.asarray(Y))
    tree = jax.tree.map(jnp.asarray, flat)
    checks.assert_real_valued(checks.program_of(exercise.loss_grads, tree, jnp.asarray(X), jnp.asarray(Y),
                                                what="loss_grads"),
                              what="loss_grads(params, x, y)", why="The gradient must come from jax.grad of loss.")
    want = {"w": X.T @ np.cos(X @ flat["w"]), "b": 2 * flat["b"] * Y.mean()}
    for how, grads in outs.items():
        checks.assert_follows(grads, want, what=f"loss_grads(params, x, y) {how}", swapped="loss", rtol=1e-5,
                              atol=1e-5, hint="The gradient must come from differentiating loss with jax.grad, "
                                              "not from a formula worked out by hand.",
                              shape_hint="The gradient has the structure of params.")

    # ... then a nested tree: every leaf, however deep.
    params = {"w": rng.standard_normal((3, 2)).astype(np.float32),
              "b": rng.standard_normal(2).astype(np.float32),
              "extra": [{"scale": rng.standard_normal(2).astype(np.float32)}]}

    def another(params, x, y):  # b's round has slope 1 by a rule JAX is given: only JAX's autodiff sees it
        return (0.5 * jnp.sum(params["w"] ** 2) + jnp.mean(x) * jnp.sum(params["b"])
                + jnp.sum(checks.straight_through_round(params["b"])) + jnp.sum(params["extra"][0]["scale"] ** 3) / 3)

    want = {"w": params["w"], "b": np.full(2, X.mean() + 1, np.float32),
            "extra": [{"scale": params["extra"][0]["scale"] ** 2}]}
    tree = jax.tree.map(jnp.asarray, params)
    with checks.swap_function(exercise, "loss", another):
        for how, grads in checks.both_ways(exercise.loss_grads, tree, jnp.asarray(X), jnp.asarray(Y)).items():
            checks.assert_follows(grads, want, what=f"loss_grads(params, x, y) {how}", swapped="loss",
                                  rtol=1e-5, atol=1e-6,
                                  hint="The gradient must come from differentiating loss with jax.grad, "
                                       "not from a formula worked out by hand: jax.grad follows the rules JAX "
                                       "knows for loss's operations, custom ones included (this loss holds a "
                                       "round whose derivative JAX was told is 1, by jax.custom_jvp).",
                                  shape_hint="The gradient has the structure of params, whatever it is.")
        try:
            news = checks.both_ways(exercise.sgd_step, tree, jnp.asarray(X), jnp.asarray(Y), LR)
        except (TypeError, KeyError, ValueError) as error:
            checks.fail(f"sgd_step failed on params nested in a dict and a list (params['extra'][0]['scale']): "
                        f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}. "
                        f"The update must reach every leaf of params, however deeply nested, without "
                        f"naming the leaves.", "wrong-shape")
    for how, new in news.items():
        checks.assert_follows(new, jax.tree.map(lambda p, g: p - LR * g, params, want),
                              what=f"sgd_step(params, x, y, lr={LR}) {how}", swapped="loss", rtol=1e-5,
                              atol=1e-6, hint="Every leaf moves against the gradient of loss: p - lr * g.",
                              shape_hint="The new params have the structure of params: every leaf "
                                         "updated, however deeply nested.")
