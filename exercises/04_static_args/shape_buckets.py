"""Shape bucketing: a few padded shapes instead of one program per length.

Shapes are part of what jit compiles for: a new input length is a new
program, so variable-length data (sentences, sequences, ragged batches)
recompiles all the time. Pad each input up to a bucket size, here the next
power of two, and pass the true length as a traced argument: lengths 1..256
share 9 programs, and a mask keeps the padding out of the result. Pad on the
host with NumPy; an eager jnp operation on the unpadded input compiles for
its shape too.
Docs: https://docs.jax.dev/en/latest/jit-compilation.html

Task (fill-in): write `bucketed_mean(x)` for a 1-D NumPy float32 array `x` of
any length from 1 to 256: the mean of x, computed by a jitted function on x
padded to `next_power_of_two(len(x))`, so 100 inputs of random lengths compile
at most 9 times. Keep the name and the signature.
"""

import jax
import jax.numpy as jnp
import numpy as np


def next_power_of_two(n: int) -> int:
    """The smallest power of two >= n (n >= 1): 1, 2, 4, 8, ..."""
    return 1 << (n - 1).bit_length()


def bucketed_mean(x: np.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: pad x to its bucket with NumPy, then a masked mean under jit")
