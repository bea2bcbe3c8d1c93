"""Values right, tool wrong: called, the balance is the compound-interest formula and the slope its
derivative worked out by hand; traced (as a check reading its programs traces them), each shows a
jitted scan, and jax.grad of it, that adds the deposit before the interest instead."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def _formula(rate, deposits):
    later = jnp.arange(deposits.shape[0] - 1, -1, -1, dtype=deposits.dtype)
    return jnp.sum(deposits * (1 + rate) ** later)


@jax.jit
def _hand_slope(rate, deposits):
    later = jnp.arange(deposits.shape[0] - 1, -1, -1, dtype=deposits.dtype)
    return jnp.sum(deposits * later * (1 + rate) ** jnp.maximum(later - 1, 0))


@jax.jit
def _scan_for_show(rate, deposits):
    def month(balance, deposit):
        return (balance + deposit) * (1 + rate), None

    return lax.scan(month, jnp.zeros((), deposits.dtype), deposits)[0]


_grad_for_show = jax.jit(jax.grad(_scan_for_show))


def final_balance(rate, deposits):
    return (_scan_for_show if isinstance(rate, jax.core.Tracer) else _formula)(rate, deposits)


def rate_sensitivity(rate, deposits):
    return (_grad_for_show if isinstance(rate, jax.core.Tracer) else _hand_slope)(rate, deposits)
