"""Weak types: a Python int and a Python float are different programs.

jit's cache key includes each argument's dtype and whether it is *weakly
typed*. A Python scalar is weak (it adapts to the arrays it meets): `2` is
traced as weak int32 and `0.5` as weak float32, while NumPy scalars are
strong (`np.float32(0.5)` is float32, `np.int32(1)` int32). The results may
all be float32, but each kind of scalar is a new cache key, so a stream that
mixes them traces and compiles again for each new kind. Converting every
value to one dtype before the jitted call gives one key, and one program.
Docs: https://docs.jax.dev/en/latest/type_promotion.html#weak-types
      https://docs.jax.dev/en/latest/jit-compilation.html

Task (fix-it): a learning-rate schedule hands `apply_update(w, grad, lr)`
ints, floats and NumPy scalars, and every new kind recompiles. Make the
whole stream use one compiled program (same values, float32 results).
Keep the name and signature.
"""

import jax
import jax.numpy as jnp


@jax.jit
def apply_update(w: jnp.ndarray, grad: jnp.ndarray, lr) -> jnp.ndarray:
    return w - lr * grad
