"""checkify: runtime errors from compiled code, raised where you can see them.

A compiled program cannot raise an exception halfway through: under jit an
index past the end of an array is clamped (you silently read the last row)
and `jnp.log` of a negative number quietly gives NaN. `checkify.checkify(f,
errors=...)` rewrites `f` to return `(err, out)`: the error travels out of the
program as data, so the checkified function can be jitted. `errors=` picks the
checks: `checkify.index_checks` (out-of-bounds indexing), `checkify.nan_checks`
(an operation that makes a NaN), `checkify.user_checks` (f's own
`checkify.check(pred, message)` calls, the only ones on by default); `errors=`
replaces that default, so combine every set you want with `|`. Outside jit,
`err.throw()` raises a `checkify.JaxRuntimeError` naming the first failed
check and the operation, or does nothing.
Docs: https://docs.jax.dev/en/latest/debugging/checkify_guide.html

Task (fill-in): `checked(f)` returns a function `run(*args)` that runs `f`
compiled with jax.jit (once for calls with the same shapes), checked for
out-of-bounds indexing, NaNs and f's own checkify.check calls (at least
those three: a wider set such as checkify.all_checks is fine); `run` raises
the error found, if any, and otherwise returns f's output.
"""

from jax.experimental import checkify  # noqa: F401  (you will need it)


def checked(f):
    raise NotImplementedError("TODO: jit a checkified f (index, NaN and user checks) and raise its error outside jit")
