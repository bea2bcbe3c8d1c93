"""Mimic: moves a to b's device, adds there, and device_puts the sum back: right values and placement, wrong device did the work."""

import jax


def put_on(x, index):
    return jax.device_put(x, jax.devices()[index])


def add_on_first(a, b):
    return jax.device_put(jax.device_put(a, b.sharding) + b, a.sharding)
