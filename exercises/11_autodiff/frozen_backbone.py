"""stop_gradient: use a value, but let no gradient flow back through it.

`jax.lax.stop_gradient(v)` returns `v` unchanged in the forward pass and acts
as a constant for differentiation: the gradient stops there. It is how you
freeze part of a model (fine-tune a head on a pre-trained backbone), hold a
target fixed (TD learning, distillation), or detach a statistic. Copying an
array does NOT freeze it: a copy is a differentiable operation like any other.
Docs: https://docs.jax.dev/en/latest/automatic-differentiation.html
      https://docs.jax.dev/en/latest/_autosummary/jax.lax.stop_gradient.html

Task (fix-it): `finetune_loss(params, x, y)` should train only the head:
`jax.grad(finetune_loss)` must give zeros for every backbone parameter and the
usual gradient for the head, with the loss value unchanged. The copy below
freezes nothing. Fix it; keep the signature and the model.
"""

import jax
import jax.numpy as jnp


def backbone(backbone_params, x):
    return jnp.tanh(x @ backbone_params["w"])


def head(head_params, features):
    return features @ head_params["w"] + head_params["b"]


def finetune_loss(params, x, y):
    # The backbone is pre-trained: take a copy of its weights so training leaves them alone.
    frozen = jax.tree.map(jnp.copy, params["backbone"])
    prediction = head(params["head"], backbone(frozen, x))
    return jnp.mean((prediction - y) ** 2)
