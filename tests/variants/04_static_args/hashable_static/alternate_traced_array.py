"""Right, differently: the coefficients travel as a traced array; jnp.polyval does the rest."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _polynomial(x, coeffs):
    return jnp.polyval(coeffs, x)


def polynomial(x, coeffs):
    return _polynomial(x, np.asarray(coeffs, dtype=np.float32))
