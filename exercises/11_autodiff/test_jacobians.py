"""Checks for grad-6 (jacobians)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

A = np.cos(np.arange(600.0)).reshape(200, 3).astype(np.float32)
X_TALL = np.array([0.3, -0.2, 0.1], np.float32)
X_WIDE = np.linspace(-1.0, 1.0, 200, dtype=np.float32)


def _assert_cheap_mode(fn, x, expected, *, what, mode, other):
    # The cheap mode pushes or pulls (small dim) directions, about 10 elements per Jacobian
    # entry here; the other mode (big dim) of them, 50 times more, whether it stacks them in
    # one (big dim) x (big dim) basis or loops over them. The program weighed is the one that
    # computes the Jacobian.
    jacobian_shape = expected.shape
    entries = int(np.prod(jacobian_shape))
    program = checks.program_of(fn, jnp.asarray(x), what=what)
    checks.assert_computes(program, expected, what=f"{what}(x)", rtol=1e-4, atol=1e-5)
    checks.assert_real_valued(program, what=f"{what}(x)", why=f"Build it with {mode}.")
    checks.assert_no_callbacks(program, what=f"{what}(x)")  # work done on the host weighs nothing here
    if program.has("while"):
        checks.fail(f"{what} builds the Jacobian in a while loop, whose trip count its program does not "
                    f"show, so the passes it makes cannot be weighed: build it with {mode}, which "
                    f"pushes or pulls its basis at once.", "wrong-tool")
    work = program.work()  # a while loop was refused above: its trip count is not in the program
    if work > 25 * entries:
        big = max(jacobian_shape)
        checks.fail(f"{what} creates {work} array elements in all for a {jacobian_shape[0]} x "
                    f"{jacobian_shape[1]} Jacobian ({entries} entries): it pushes or pulls {big} "
                    f"directions, one per {other}, at once or one after another in a loop. Use "
                    f"{mode}: it needs only {min(jacobian_shape)}. See "
                    f"{checks.DOCS}/notebooks/autodiff_cookbook.html", "wrong-tool")


def _tall_expected():
    return (1 - np.tanh(A @ X_TALL) ** 2)[:, None] * A


def _wide_expected():
    return A.T * (1 - np.tanh(X_WIDE) ** 2)[None, :]


def test_tall_jacobian_values_and_shape(exercise):
    jac = jax.jit(exercise.jacobian_of_expand)(jnp.asarray(X_TALL))
    expected = _tall_expected()
    checks.assert_shape_dtype(jac, (200, 3), np.float32, what="jacobian_of_expand(x)",
                              hint="The Jacobian of R^3 -> R^200 has one row per output: (200, 3).")
    checks.assert_close(jac, expected, what="jacobian_of_expand(x)", rtol=1e-4, atol=1e-5)


def test_tall_jacobian_uses_forward_mode(exercise):
    _assert_cheap_mode(exercise.jacobian_of_expand, X_TALL, _tall_expected(), what="jacobian_of_expand",
                       mode="jax.jacfwd (forward mode, one pass per input)", other="output")


def test_wide_jacobian_values_and_shape(exercise):
    jac = jax.jit(exercise.jacobian_of_summarize)(jnp.asarray(X_WIDE))
    expected = _wide_expected()
    checks.assert_shape_dtype(jac, (3, 200), np.float32, what="jacobian_of_summarize(x)",
                              hint="The Jacobian of R^200 -> R^3 has one row per output: (3, 200).")
    checks.assert_close(jac, expected, what="jacobian_of_summarize(x)", rtol=1e-4, atol=1e-5)


def test_wide_jacobian_uses_reverse_mode(exercise):
    _assert_cheap_mode(exercise.jacobian_of_summarize, X_WIDE, _wide_expected(), what="jacobian_of_summarize",
                       mode="jax.jacrev (reverse mode, one pass per output)", other="input")


def test_hessian_values_and_shape(exercise):
    for x in (np.array([1.0, -2.0, 0.5], np.float32), np.array([0.0, 1.5, -1.0, 2.0, 0.25], np.float32)):
        expected = np.diag(3 * x**2) + np.ones((x.size, x.size), np.float32)
        hess = jax.jit(exercise.hessian_of_energy)(jnp.asarray(x))  # one compile, not one per eager op
        checks.assert_shape_dtype(hess, expected.shape, np.float32, what=f"hessian_of_energy(x of shape {x.shape})",
                                  hint="The Hessian of R^n -> R is n x n: the Jacobian of the "
                                       "gradient, one more differentiation than the gradient itself.")
        checks.assert_close(hess, expected, what=f"hessian_of_energy({x.tolist()})", rtol=1e-4, atol=1e-5)


def test_differentiates_the_given_functions(exercise):
    # Other functions (of the same sizes) in place of expand, summarize and energy: JAX's
    # Jacobians follow them; derivatives written out by hand do not.
    rng = np.random.default_rng(9)
    b, c = rng.standard_normal((200, 3)).astype(np.float32), rng.standard_normal((200, 3)).astype(np.float32)
    x4 = rng.standard_normal(4).astype(np.float32)
    hint = ("Build it with JAX's autodiff of the function itself, not with a derivative worked out by hand: JAX "
            "follows the rules it knows for the function's operations, custom ones included (the functions here "
            "hold a round whose derivative JAX was told is 1, by jax.custom_jvp).")
    # Rounds whose derivative JAX was told is 1 (jax.custom_jvp): only JAX's autodiff follows the rule.
    with (checks.swap_function(exercise, "expand", lambda x: jnp.sin(jnp.asarray(b) @ x)
                               + checks.straight_through_round(jnp.asarray(b) @ x)),
          checks.swap_function(exercise, "summarize", lambda x: jnp.asarray(c).T @ jnp.sin(x)),
          checks.swap_function(exercise, "energy", lambda x: jnp.sum(jnp.cos(x)) + jnp.sum(x) ** 3 / 6
                               + jnp.sum(x * checks.straight_through_round(x)))):
        # Under jax.jit one program for the three (one compile, not one per eager op); then on arrays.
        outs = checks.both_ways(lambda u, v, w: (exercise.jacobian_of_expand(u), exercise.jacobian_of_summarize(v),
                                                 exercise.hessian_of_energy(w)),
                                jnp.asarray(X_TALL), jnp.asarray(X_WIDE), jnp.asarray(x4))  # traced and on arrays
    for how, (tall, wide, hess) in outs.items():
        _follow(tall, wide, hess, b, c, x4, hint, how)


def _follow(tall, wide, hess, b, c, x4, hint, how):
    """The three derivatives with the functions swapped, as they should be (`how`: how they were called)."""
    checks.assert_follows(tall, (np.cos(b @ X_TALL) + 1)[:, None] * b, what=f"jacobian_of_expand(x) {how}",
                          swapped="expand", rtol=1e-5, atol=1e-6, hint=hint, shape_hint="A Jacobian is (outputs, inputs).")
    checks.assert_follows(wide, c.T * np.cos(X_WIDE)[None, :], what=f"jacobian_of_summarize(x) {how}",
                          swapped="summarize", rtol=1e-5, atol=1e-6, hint=hint,
                          shape_hint="A Jacobian is (outputs, inputs).")
    # x * round(x) adds 1 down the diagonal: the rule's slope once (its value is round's own, slope 0).
    checks.assert_follows(hess, np.diag(1 - np.cos(x4)) + x4.sum() * np.ones((4, 4), np.float32),
                          what=f"hessian_of_energy(x) {how}", swapped="energy", rtol=1e-5, atol=1e-5, hint=hint,
                          shape_hint="The Hessian of R^n -> R is n x n.")
