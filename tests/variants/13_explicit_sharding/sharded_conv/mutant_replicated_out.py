"""Wrong: convolves in place but then copies the whole result onto every device."""

import jax
from jax import lax
from jax.sharding import PartitionSpec as P


@jax.jit
def filter_batch(x, k):
    return jax.reshard(lax.conv_general_dilated(x, k, (1,), "VALID"), P())
