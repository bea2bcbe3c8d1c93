"""Hidden checks for sharding-1 (device_placement): values and devices the visible checks do not show."""

import jax
import numpy as np

from grader import checks


def test_adds_unseen_values_on_a_device(exercise):
    devices = jax.devices()
    first, second = len(devices) - 2 if len(devices) > 1 else 0, 1 % len(devices)
    a_host = np.array([0.5, -4.0, 7.25, 2.0], np.float32)
    b_host = np.array([3.0, 1.5, -0.25, 8.0], np.float32)
    a, b = jax.device_put(a_host, devices[first]), jax.device_put(b_host, devices[second])
    what = f"add_on_first(a on device {first}, b on device {second}) with new values"
    out = exercise.add_on_first(a, b)
    checks.assert_close(out, a_host + b_host, what=what, hint="Return a + b, computed from the arrays you are given.")
    checks.assert_on_devices(out, {devices[first]}, what=what,
                             hint="Move b to a's device and add there.")
