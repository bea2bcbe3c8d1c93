"""Checks for memory-1 (remat_scan)."""

import jax
import numpy as np

from grader import checks

REMAT_DOCS = f"{checks.DOCS}/gradient-checkpointing.html"
L, B, H = 16, 16, 16  # layers, batch, width
_rs = np.random.RandomState(0)
WS = (_rs.randn(L, H, H) / np.sqrt(H)).astype(np.float32)
X = _rs.randn(B, H).astype(np.float32)
ACTIVATION_BYTES = L * B * H * 4  # one float32 (batch, width) array per layer


def _reference(ws, x):
    """loss and d loss / d ws in float64 NumPy."""
    acts = [np.asarray(x, np.float64)]
    for w in ws.astype(np.float64):
        acts.append(np.tanh(acts[-1] @ w))
    y = acts[-1]
    grad_y, grad_ws = 2 * y / y.size, np.zeros(ws.shape)
    for i in reversed(range(len(ws))):
        grad_z = grad_y * (1 - acts[i + 1] ** 2)
        grad_ws[i] = acts[i].T @ grad_z
        grad_y = grad_z @ ws[i].T
    return np.mean(y ** 2), grad_ws


def _policy_name(eqn):
    policy = eqn.params.get("policy")
    if policy is None:
        return "nothing_saveable (the default)"
    return getattr(policy, "__name__", None) or repr(policy)


def _checkpointed_steps(program):
    """The jax.checkpoint calls inside a scan's step that hold a layer's matmul."""
    return [eqn for scan in program.find("scan") for eqn in checks.Program(scan.params["jaxpr"]).find("remat2")
            if checks.Program(eqn.params["jaxpr"]).has("dot_general")]


def test_each_layer_keeps_only_its_input(exercise):
    forward = checks.program_of(exercise.loss, WS, X, what="loss")
    if not forward.find("scan"):
        checks.fail(f"loss has no lax.scan in its program any more: its layers are a Python loop, unrolled "
                    f"into {L} copies. The task keeps the scan over the layers and changes only what each "
                    f"step keeps for the backward pass. See {REMAT_DOCS}", "unrolled")
    gradient = checks.program_of(jax.grad(exercise.loss), WS, X, what="jax.grad(loss)")
    stored = gradient.stored_per_step()
    if len(stored) != 1 or stored[0].source != "input":
        kept = "; ".join(s.describe() for s in stored) or "nothing"
        remats = forward.find("remat2")
        if not remats:
            why = ("Nothing in loss is checkpointed, so autodiff keeps whatever the backward pass will "
                   "read. Mark the layer with jax.checkpoint so its values are recomputed instead.")
        elif any(checks.Program(eqn.params["jaxpr"]).find("scan") for eqn in remats):
            why = ("The checkpoint wraps the whole scan: the backward pass re-runs the scan, and that "
                   "scan stacks every layer's values again. Checkpoint one layer, the scan's step.")
        else:
            why = (f"The layer is checkpointed with policy {_policy_name(remats[0])}, which lets it save "
                   f"these values; the task wants every value but the input recomputed.")
        checks.fail(checks.sentence(
            f"Under jax.grad, loss keeps {len(stored)} array(s) per layer for the backward pass ({kept}), "
            f"each stacked {L} times; expected only the layer's input.", why, f"See {REMAT_DOCS}"),
            "memory-use")
    checks.assert_not_uses(forward, {"custom_vjp_call", "custom_vjp_call_jaxpr"}, what="loss", code="wrong-tool",
                           why="A custom_vjp is a hand-written backward pass, which the task rules out, "
                               "whatever it recomputes: jax.checkpoint on the scan's step does the "
                               f"recomputing for any function. See {REMAT_DOCS}")
    checks.assert_uses(forward, {"remat2"}, what="loss", tool="jax.checkpoint",
                       hint="Recomputing by hand (a custom_vjp that re-runs the layer) is not the task: "
                            f"jax.checkpoint does it for any function. See {REMAT_DOCS}")
    # Read in the gradient's own program, where autodiff used it: a checkpoint that only a custom_vjp's
    # primal function holds shows in the forward program but never runs under jax.grad.
    if not _checkpointed_steps(forward) or not _checkpointed_steps(gradient):
        checks.fail(f"loss keeps only each layer's input, but no jax.checkpoint inside the scan's step "
                    f"holds the layer's work: the checkpoint in its program wraps something else, and the "
                    f"recomputation is done another way (by hand, in a custom_vjp, say). The task is "
                    f"jax.checkpoint on the step. See {REMAT_DOCS}", "wrong-tool")


def test_compiled_gradient_needs_less_memory(exercise):
    compiled = checks.compiled_program(jax.value_and_grad(exercise.loss), WS, X,
                                       what="jax.jit(jax.value_and_grad(loss))")
    temp = compiled.memory().temp_size_in_bytes
    per_layer = temp / ACTIVATION_BYTES
    # Measured in JAX 0.10.2 on CPU: about 1.3 activations per layer when each layer keeps only its
    # input, 2.3 when the matmul outputs are kept too, 3.3 when nothing is recomputed.
    if per_layer > 1.75:
        checks.fail(f"The compiled gradient (jax.jit(jax.value_and_grad(loss)), {L} layers of "
                    f"({B}, {H})) needs {temp} bytes of temporaries: {per_layer:.1f} (batch, width) float32 "
                    f"arrays per layer, where keeping only each layer's input needs about 1.3. XLA's "
                    f"memory_analysis() sees what the program keeps alive: recompute each layer in the "
                    f"backward pass with jax.checkpoint instead of storing its values. See {REMAT_DOCS}",
                    "memory-use")
    value, grads = compiled.executable(WS, X)
    want_value, want_grads = _reference(WS, X)
    checks.assert_close(value, want_value, rtol=1e-4, what="loss(ws, x)",
                        hint="Checkpointing must not change the numbers: the same layers, the mean of "
                             "the squared output.")
    checks.assert_close(grads, want_grads, rtol=1e-4, atol=1e-6, what="jax.grad(loss)(ws, x)")
