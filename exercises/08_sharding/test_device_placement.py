"""Checks for sharding-1 (device_placement)."""

import jax
import numpy as np

from grader import checks

X = np.arange(6, dtype=np.int32).reshape(2, 3)


def test_put_on_lands_on_the_requested_device(exercise):
    devices = jax.devices()
    n = len(devices)
    for index in sorted({n - 1, n // 2, min(1, n - 1)}):
        out = exercise.put_on(X, index)
        checks.assert_on_devices(
            out, {devices[index]}, what=f"put_on(x, {index})",
            hint="jnp.asarray(x) lands on the default device (device 0); jax.device_put(x, device) "
                 "puts it where you say.")
        checks.assert_shape_dtype(out, X.shape, X.dtype, what=f"put_on(x, {index})")
        checks.assert_close(out, X, what=f"put_on(x, {index})")


def pair(first: int, second: int) -> tuple[jax.Array, jax.Array]:
    devices = jax.devices()
    a = jax.device_put(np.array([1.0, 2.0, 3.0], np.float32), devices[first])
    b = jax.device_put(np.array([10.0, 20.0, 30.0], np.float32), devices[second])
    return a, b


def test_add_on_first_runs_where_a_lives(exercise):
    n = jax.device_count()
    for first, second in [(min(2, n - 1), n - 1), (n - 1, 0)]:
        a, b = pair(first, second)
        what = f"add_on_first(a on device {first}, b on device {second})"
        try:
            out = exercise.add_on_first(a, b)
        except ValueError as error:
            checks.fail(
                f"{what} raised ValueError: {str(error).splitlines()[0][:160]}. Arrays committed to "
                f"different devices are never moved implicitly: jax.device_put(b, a.sharding) (or "
                f"a's device) first.")
        checks.assert_close(out, np.array([11.0, 22.0, 33.0], np.float32), what=what)
        checks.assert_on_devices(
            out, {jax.devices()[first]}, what=what,
            hint="The result of an operation stays where its inputs are: move b to a's device, "
                 "not a to b's.")
