"""jax.pure_callback: call host code from a compiled program, and batch it.

Some work exists only as NumPy or SciPy code on the host.
`jax.pure_callback(fn, result_shape_dtypes, *args, vmap_method=...)` puts a
call to `fn` into the program: at run time `fn` gets the arguments as host
arrays and must return arrays of exactly the shapes and dtypes declared with
`jax.ShapeDtypeStruct(shape, dtype)` (JAX traces before `fn` ever runs, so it
cannot look). JAX treats `fn` as pure: it may drop a call whose result is
unused, or make more calls. Under `jax.vmap` you say how the call batches:
"sequential" calls `fn` once per example (a host round trip each);
"expand_dims" and "broadcast_all" call it once, with the batch stacked along a
new leading axis that `fn` must handle. With no vmap_method, vmap refuses.
Docs: https://docs.jax.dev/en/latest/external-callbacks.html

Task (fill-in): `ranks(x)` returns the rank of each entry of `x` along its
last axis (int32, the shape of x), computed on the host by `host_ranks`
through jax.pure_callback (call it by that name: the checks count its calls).
It must work under jax.jit, one host call per call, and under jax.vmap with
one host call for the whole batch.
"""

import numpy as np


def host_ranks(x):
    """NumPy, on the host: the rank (0 = smallest) of each entry along the last axis; any leading axes."""
    x = np.asarray(x)
    return np.argsort(np.argsort(x, axis=-1), axis=-1).astype(np.int32)


def ranks(x):
    raise NotImplementedError("TODO: call host_ranks through jax.pure_callback, batched in one call under vmap")
