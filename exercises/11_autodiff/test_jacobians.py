"""Checks for grad-6 (jacobians)."""

import jax
import jax.extend
import jax.numpy as jnp
import numpy as np

from grader import checks

A = np.cos(np.arange(600.0)).reshape(200, 3).astype(np.float32)
X_TALL = np.array([0.3, -0.2, 0.1], np.float32)
X_WIDE = np.linspace(-1.0, 1.0, 200, dtype=np.float32)


def _largest_intermediate(fn, x):
    """Elements in the biggest array the traced computation creates, nested jaxprs included."""
    def eqns(jaxpr):
        for eqn in jaxpr.eqns:
            yield eqn
            for sub in jax.extend.core.jaxprs_in_params(eqn.params):
                yield from eqns(getattr(sub, "jaxpr", sub))

    closed = jax.make_jaxpr(fn)(x)
    sizes = [int(np.prod(v.aval.shape)) for eqn in eqns(closed.jaxpr) for v in eqn.outvars
             if hasattr(v.aval, "shape")]
    return max(sizes, default=0)


def _assert_cheap_mode(fn, x, jacobian_shape, *, what, mode, other):
    # The cheap mode's work is (small dim) x (big dim); the other mode builds a
    # (big dim) x (big dim) basis of directions, 66 times more here.
    limit = 4 * int(np.prod(jacobian_shape))
    largest = _largest_intermediate(fn, jnp.asarray(x))
    if largest > limit:
        big = max(jacobian_shape)
        checks.fail(f"{what} builds an intermediate array of {largest} elements for a "
                    f"{jacobian_shape[0]} x {jacobian_shape[1]} Jacobian ({int(np.prod(jacobian_shape))} "
                    f"entries): it pushes or pulls {big} directions, one per {other}. Use {mode}: it "
                    f"needs only {min(jacobian_shape)}. See "
                    f"{checks.DOCS}/notebooks/autodiff_cookbook.html", "wrong-tool")


def test_tall_jacobian_values_and_shape(exercise):
    jac = jax.jit(exercise.jacobian_of_expand)(jnp.asarray(X_TALL))
    expected = (1 - np.tanh(A @ X_TALL) ** 2)[:, None] * A
    checks.assert_shape_dtype(jac, (200, 3), np.float32, what="jacobian_of_expand(x)",
                              hint="The Jacobian of R^3 -> R^200 has one row per output: (200, 3).")
    checks.assert_close(jac, expected, what="jacobian_of_expand(x)", rtol=1e-4, atol=1e-5)


def test_tall_jacobian_uses_forward_mode(exercise):
    _assert_cheap_mode(exercise.jacobian_of_expand, X_TALL, (200, 3), what="jacobian_of_expand",
                       mode="jax.jacfwd (forward mode, one pass per input)", other="output")


def test_wide_jacobian_values_and_shape(exercise):
    jac = jax.jit(exercise.jacobian_of_summarize)(jnp.asarray(X_WIDE))
    expected = A.T * (1 - np.tanh(X_WIDE) ** 2)[None, :]
    checks.assert_shape_dtype(jac, (3, 200), np.float32, what="jacobian_of_summarize(x)",
                              hint="The Jacobian of R^200 -> R^3 has one row per output: (3, 200).")
    checks.assert_close(jac, expected, what="jacobian_of_summarize(x)", rtol=1e-4, atol=1e-5)


def test_wide_jacobian_uses_reverse_mode(exercise):
    _assert_cheap_mode(exercise.jacobian_of_summarize, X_WIDE, (3, 200), what="jacobian_of_summarize",
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
    hint = "Build it with JAX's autodiff of the function itself, not with a derivative worked out by hand."
    with (checks.swap_function(exercise, "expand", lambda x: jnp.sin(jnp.asarray(b) @ x)),
          checks.swap_function(exercise, "summarize", lambda x: jnp.asarray(c).T @ jnp.sin(x)),
          checks.swap_function(exercise, "energy", lambda x: jnp.sum(jnp.cos(x)) + jnp.sum(x) ** 3 / 6)):
        # One program for the three (one compile, not one per eager op).
        tall, wide, hess = jax.jit(lambda u, v, w: (exercise.jacobian_of_expand(u), exercise.jacobian_of_summarize(v),
                                                    exercise.hessian_of_energy(w)))(
            jnp.asarray(X_TALL), jnp.asarray(X_WIDE), jnp.asarray(x4))
    checks.assert_follows(tall, np.cos(b @ X_TALL)[:, None] * b, what="jacobian_of_expand(x)", swapped="expand",
                          rtol=1e-5, atol=1e-6, hint=hint, shape_hint="A Jacobian is (outputs, inputs).")
    checks.assert_follows(wide, c.T * np.cos(X_WIDE)[None, :], what="jacobian_of_summarize(x)",
                          swapped="summarize", rtol=1e-5, atol=1e-6, hint=hint,
                          shape_hint="A Jacobian is (outputs, inputs).")
    checks.assert_follows(hess, np.diag(-np.cos(x4)) + x4.sum() * np.ones((4, 4), np.float32),
                          what="hessian_of_energy(x)", swapped="energy", rtol=1e-5, atol=1e-5, hint=hint,
                          shape_hint="The Hessian of R^n -> R is n x n.")
