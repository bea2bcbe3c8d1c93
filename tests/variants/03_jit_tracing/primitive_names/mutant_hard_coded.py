"""Wrong: hard-codes the answers the visible checks expect, looked up by the global names each lambda uses (only the hidden check catches it)."""

KNOWN = {
    ("jnp", "sin"): ["sin", "mul"],
    ("jnp", "exp"): ["exp", "sub"],
    ("jnp", "tanh"): ["dot_general", "tanh"],
    ("jnp", "cos"): ["cos", "cos"],
    (): ["mul", "sub", "mul", "mul"],
}


def primitive_names(f, *args):
    return list(KNOWN.get(f.__code__.co_names, []))
