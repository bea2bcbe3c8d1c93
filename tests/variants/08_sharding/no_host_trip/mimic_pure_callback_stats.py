"""Mimic: one jitted program, but its column statistics come from NumPy on the host through jax.pure_callback."""
import jax
import jax.numpy as jnp
import numpy as np


def _stats(x):
    x = np.asarray(x)
    return x.mean(axis=0).astype(np.float32), x.std(axis=0).astype(np.float32)


@jax.jit
def standardize(x):
    shape = jax.ShapeDtypeStruct((x.shape[1],), jnp.float32)
    mean, std = jax.pure_callback(_stats, (shape, shape), x)
    return (x - mean) / std
