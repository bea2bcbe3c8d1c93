"""64-bit types: off by default, on for one computation, and no float detours.

JAX computes in 32 bits unless `jax_enable_x64` is on: a NumPy int64 array
becomes int32 on the way in (values past 2**31 silently wrap) and a request
for float64 gives float32. `with jax.enable_x64(True):` turns 64-bit types on
for the code inside it and restores the setting after (use
`jax.config.update("jax_enable_x64", True)` at startup for a whole program).
The lowered program then carries i64/f64 types. 64 bits cost twice the memory
and bandwidth, and on GPUs and TPUs far more time, so enable them only where
a value needs them. Exactness is about the type, not the width: float32
holds every integer only up to 2**24 (16777217 becomes 16777216), float64
up to 2**53, and today's time in nanoseconds is about 2**60. Integers stay
exact in integer arithmetic: `//` floors without a float in sight.
Docs: https://docs.jax.dev/en/latest/default_dtypes.html
      https://docs.jax.dev/en/latest/_autosummary/jax.enable_x64.html

Task (fix-it): `to_milliseconds(ns)` should turn int64 nanosecond timestamps
(a NumPy array) into whole milliseconds, floored, exactly, as an int64 JAX
array, computed by JAX, and leave every JAX setting (jax_enable_x64 and
the rest) as it found it. Keep the name.
"""

import jax.numpy as jnp


def to_milliseconds(ns):
    return jnp.floor(jnp.asarray(ns) / 1e6).astype(jnp.int64)
