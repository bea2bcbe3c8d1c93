"""Type promotion: the lattice decides the dtype of every mixed operation.

When an operation mixes dtypes, JAX takes the result from its promotion
lattice, not from NumPy's rules: int32 + float16 is float16 (any float beats
any int), uint8 + int8 is int16, and bfloat16 + float16 is float32, since
neither 16-bit float can hold the other. Python scalars are *weak*: `x * 0.5`
keeps x's dtype. NumPy scalars and JAX arrays are *strong*: `x_bf16 *
np.float32(0.5)` is float32. A promotion shows in the jaxpr as a
`convert_element_type` that widens the operands before the op, so a
bfloat16 model can silently compute in float32, moving twice the bytes.
`jnp.promote_types(a, b)` and `jnp.result_type(*args)` tell in advance.
Docs: https://docs.jax.dev/en/latest/type_promotion.html

Task (fix-it): `blend(x, y, gain)` should return x + gain * y in x's dtype,
with every step computed in x's dtype, for any floating x, any numeric y of
x's shape and any Python or NumPy scalar gain. It promotes to float32
instead. Keep the name and signature.
"""

import jax.numpy as jnp


def blend(x: jnp.ndarray, y: jnp.ndarray, gain) -> jnp.ndarray:
    return x + gain * y
