"""Wrong: flips the kernel (a true convolution, like np.convolve) where the task asks for lax's cross-correlation."""

import jax
from jax import lax


@jax.jit
def filter_batch(x, k):
    return lax.conv_general_dilated(x, k[:, :, ::-1], (1,), "VALID")
