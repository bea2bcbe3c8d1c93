"""Wrong: each device multiplies its blocks but nothing adds the partial products (check_vma off hides it)."""

from functools import partial

import jax
from jax.sharding import PartitionSpec as P


@jax.jit
def project(x, w):
    @partial(jax.shard_map, in_specs=(P(None, "data"), P("data", None)), out_specs=P(), check_vma=False)
    def local(xb, wb):
        return xb @ wb

    return local(x, w)
