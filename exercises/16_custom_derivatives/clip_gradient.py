"""Your own backward pass with jax.custom_vjp: clip the gradient, not the value.

jax.custom_vjp replaces what reverse-mode autodiff does at one function. You
write the function (the forward pass) and two rules, registered with
f.defvjp(fwd, bwd): fwd(*args) returns (output, residuals), the output plus
whatever bwd will need; bwd(residuals, g) receives g, the cotangent arriving at
the output, and returns a tuple with one cotangent per argument of f (None for
an argument that gets no gradient). jax.grad never looks inside f: the program
holds a custom_vjp_call, and the backward pass runs your bwd. A classic use is
gradient clipping at one point of a network: the forward pass is the identity,
the backward pass clips every element of g to [-bound, bound]. Arrays that may
be traced (under jit or vmap) are ordinary arguments: nondiff_argnums is for
Python values such as functions or flags.
Docs: https://docs.jax.dev/en/latest/notebooks/Custom_derivative_rules_for_Python_code.html

Task (fill-in): write `clip_gradient(x, bound)` with jax.custom_vjp. It returns x
unchanged; in the backward pass the cotangent reaching x is clipped elementwise
to [-bound, bound]. `bound` is a float or a scalar array and may be traced (the
checks call it under jit and vmap): hand it to bwd as a residual, since the
grader runs bwd after tracing clip_gradient on its own, where a closed-over
traced bound has escaped. Keep the name and signature.
"""

import jax
import jax.numpy as jnp


def clip_gradient(x, bound):
    raise NotImplementedError("TODO: a jax.custom_vjp function: x unchanged forward, the cotangent "
                              "clipped to [-bound, bound] backward")
