"""Checks for custom-1 (clip_gradient)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks
from grader.runtime.explain import explain

CUSTOM_DOCS = f"{checks.DOCS}/notebooks/Custom_derivative_rules_for_Python_code.html"
# Values beyond the bound too: the forward pass must not clip them.
X = np.array([-3.0, -0.5, 0.0, 0.25, 2.0, 7.5], np.float32)
# The cotangent arriving at clip_gradient's output: some elements beyond 1, some within.
G = np.array([4.0, -0.3, -2.5, 0.8, 1.0, -1.25], np.float32)
TRACER_ERRORS = (jax.errors.UnexpectedTracerError, jax.errors.TracerArrayConversionError,
                 jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError)


def _weighted(clip_gradient):
    # d/dx sum(g * clip_gradient(x, bound)) is the cotangent bwd returns for x, given g.
    return lambda x, g, bound: jnp.sum(g * clip_gradient(x, bound))


def _explained(what, fn, *args):
    """fn(*args); a tracer error becomes the lesson for it, with the call that hit it."""
    try:
        return fn(*args)
    except TRACER_ERRORS as error:
        known = explain(error)
        advice = {"numpy-on-tracer": "Everything bwd computes must be jax.numpy on the values it is given.",
                  "traced-value": "bound must travel as an ordinary argument: the checks trace it."}
        checks.fail(checks.sentence(f"{what} failed: {known.headline}.", known.idea,
                                    advice.get(known.code, ""), f"See {known.link}"), known.code)


def test_forward_is_identity_and_backward_clips(exercise):
    out = exercise.clip_gradient(jnp.asarray(X), 1.0)
    checks.assert_close(out, X, rtol=0, atol=0, what=f"clip_gradient({X.tolist()}, 1.0)",
                        hint="The forward pass returns x unchanged, even beyond the bound: only the "
                             "gradient is clipped, never the value.")
    grad = jax.jit(jax.grad(_weighted(exercise.clip_gradient)))
    grad = _explained("jax.jit(jax.grad(...))(x, g, 1.0) (bound traced under jit)", grad, jnp.asarray(X),
                      jnp.asarray(G), 1.0)
    checks.assert_close(grad, np.clip(G, -1.0, 1.0),
                        what=f"jax.jit(jax.grad(...)) of sum(g * clip_gradient(x, 1.0)), g = {checks.short(G)}",
                        hint="bwd receives the incoming cotangent g and returns (g clipped elementwise "
                             "to [-bound, bound], nothing for bound).")
    program = checks.program_of(exercise.clip_gradient, jnp.asarray(X), 1.0, what="clip_gradient")
    checks.assert_computes(program, X, what=f"clip_gradient({X.tolist()}, 1.0)", rtol=0, atol=0)
    checks.assert_uses(program, {"custom_vjp_call"}, what="clip_gradient", tool="jax.custom_vjp",
                       hint=f"Decorate the function with @jax.custom_vjp and register fwd and bwd with "
                            f"clip_gradient.defvjp. See {CUSTOM_DOCS}")
    if not program.wraps("custom_vjp_call"):
        checks.fail(f"clip_gradient's program holds a custom_vjp_call, but not as clip_gradient itself: the rule "
                    f"belongs to a function applied to some other value (a term added to x, a value another "
                    f"transformation made from it), so the clipping of the gradient comes from elsewhere or only "
                    f"in part from the rule. The task puts the rule on clip_gradient: x in, x out, its bwd "
                    f"clipping the cotangent. See {CUSTOM_DOCS}", "wrong-tool")
    # bwd only shows up in the program of the gradient, where the backward pass runs.
    backward = checks.program_of(jax.grad(_weighted(exercise.clip_gradient)), jnp.asarray(X),
                                 jnp.asarray(G), 1.0, what="jax.grad through clip_gradient")
    checks.assert_computes(backward, np.clip(G, -1.0, 1.0), what="the backward pass of clip_gradient")


def test_per_example_under_jit_and_vmap_with_a_traced_bound(exercise):
    grad = jax.grad(_weighted(exercise.clip_gradient))
    xs = np.stack([X, X[::-1], 2 * X])
    gs = np.stack([G, -G, G[::-1] * 3])
    got = _explained("jax.jit(jax.vmap(jax.grad(...))) over a batch of x and g, bound a traced float32",
                     jax.jit(jax.vmap(grad, in_axes=(0, 0, None))), jnp.asarray(xs), jnp.asarray(gs),
                     jnp.float32(1.0))
    checks.assert_close(got, np.clip(gs, -1.0, 1.0), what="per-example clipped cotangents under vmap",
                        hint="Each example's cotangent is clipped elementwise on its own; nothing in "
                             "bwd should mix the examples or depend on the batch.")
