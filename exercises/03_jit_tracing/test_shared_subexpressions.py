"""Checks for jit-4 (shared_subexpressions)."""

import jax
import numpy as np

from grader import checks

X1 = np.linspace(-2.0, 3.0, 6, dtype=np.float32)
X2 = np.linspace(0.5, 1.5, 6, dtype=np.float32)
ORIGINAL_SIZE = 10  # div exp sub div sin div add exp sub mul
CALLS = ("jit", "pjit")  # a jit wrapper is one extra equation around the same body


def _expected(x1, x2):
    x1, x2 = x1.astype(np.float64), x2.astype(np.float64)
    return (x1 / x2 - np.exp(x2)) * (np.sin(x1 / x2) + x1 / x2 - np.exp(x2))


def _primitives(exercise):
    program = checks.program_of(exercise.score, X1, X2, what="score")
    # Fewer equations only count if JAX still does the work (not NumPy behind a host callback), and
    # the program counted computes the score.
    checks.assert_computes(program, _expected(X1, X2), what="score(x1, x2)", atol=1e-5)
    return program.primitives()


def test_shared_pieces_traced_once(exercise):
    prims = _primitives(exercise)
    for name, piece in [("div", "x1 / x2"), ("exp", "jnp.exp(x2)")]:
        n = prims.count(name)
        if n > 1:
            checks.fail(f"the jaxpr of score holds {n} `{name}` equations: {piece} is traced each time "
                        f"Python evaluates it. Compute it once into a variable and reuse the variable. "
                        f"Primitives: {prims}. See {checks.DOCS}/jaxpr.html", "repeated-work")
    # However each piece is spelled (x1 * x2 ** -1 is x1 / x2 again): no values computed twice.
    program = checks.program_of(exercise.score, X1, X2, what="score")
    for first, again in program.computed_twice():
        checks.fail(f"the jaxpr of score computes the same values twice: its `{again}` equation gives what "
                    f"its earlier `{first}` already did (a shared piece spelled another way is still computed "
                    f"twice). Compute each shared piece once into a variable and reuse the variable. "
                    f"Primitives: {prims}. See {checks.DOCS}/jaxpr.html", "repeated-work")


def test_jaxpr_is_smaller_with_the_same_values(exercise):
    size = len([p for p in _primitives(exercise) if p not in CALLS])
    if size >= ORIGINAL_SIZE:
        checks.fail(f"score traces to {size} equations (a jit wrapper not counted), as many as the "
                    f"repeated original ({ORIGINAL_SIZE}) or more. Reuse the shared pieces (x1 / x2, "
                    f"exp(x2), and their difference) so the program shrinks; wrapping it in jax.jit "
                    f"leaves the traced body as it was.", "repeated-work")
    # A smaller program only counts if the rewrite still computes the same score.
    checks.assert_close(exercise.score(X1, X2), _expected(X1, X2), rtol=1e-5, atol=1e-5,
                        what="score(x1, x2)")
    checks.assert_close(jax.jit(exercise.score)(X1, X2), _expected(X1, X2), rtol=1e-5, atol=1e-5,
                        what="jax.jit(score)(x1, x2)")
