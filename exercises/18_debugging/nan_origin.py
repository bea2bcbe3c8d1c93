"""jax_debug_nans: find the operation that made the first NaN.

A NaN spreads: once one operation makes it, everything computed from it is
NaN too, so the output cannot tell you where it started. With the
`jax_debug_nans` option on, JAX checks the output of every jitted call; when
it holds a NaN, JAX runs the function again op by op ("de-optimized") and
raises `FloatingPointError` at the first primitive whose result is NaN. The
message names that primitive ("invalid value (nan) encountered in sqrt") and
the traceback points at your line. The option is global: the context manager
`with jax.debug_nans(True):` turns it on for one block and restores the
previous setting on the way out, even when an error escapes, whereas
`jax.config.update` leaves it changed for everything that runs afterwards.
Docs: https://docs.jax.dev/en/latest/debugging/flags.html

Task (fill-in): `nan_origin(f, *args)` runs `jax.jit(f)(*args)` with the
`jax_debug_nans` option on (not checkify's nan_checks) and returns the name of
the primitive that made the first NaN (a str such as "log"), or None when no
NaN appears. Leave `jax_debug_nans` as you found it, whether it was on or off.
"""


def nan_origin(f, *args):
    raise NotImplementedError("TODO: run jax.jit(f) with NaN checking on; return the primitive that made the NaN")
