"""Unrolling a scan: copies of the step in the program, a trade-off.

lax.scan(step, init, xs, unroll=k) puts k copies of step in each iteration of
the compiled loop, which then runs length / k times (any leftover steps run
after it). A few copies give XLA room to fuse neighbouring steps and cut the
per-iteration cost of the loop (a condition check, a counter, small buffers),
which matters when the step is tiny. unroll=True copies the step `length`
times and drops the loop: the program, its compile time and its instruction
memory grow with the number of steps. unroll=1 (the default) keeps one copy.
Jaxprs show the factor (`unroll=` on the scan); the compiled HLO shows the loop
and its trip count.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.lax.scan.html

Task (fix-it): `swing(theta0, omega0, dt, steps)` integrates a pendulum and
returns the angle after each step, shape (steps,). Its scan is fully unrolled,
so the compiled program holds `steps` copies of the step. Keep the loop but
unroll it partially, through the scan's own unroll: 4 steps per loop
iteration. Same results; keep the signature (steps stays static).
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="steps")
def swing(theta0, omega0, dt, steps):
    def step(state, _):
        theta, omega = state
        omega = omega - dt * jnp.sin(theta)  # semi-implicit Euler: velocity first
        theta = theta + dt * omega
        return (theta, omega), theta

    _, thetas = lax.scan(step, (theta0, omega0), None, length=steps, unroll=True)
    return thetas
