"""Wrong: "gpu" is a backend name, not an export platform; export for "cuda" (or "rocm")."""

import jax


def export_for_servers(f, spec):
    return jax.export.export(jax.jit(f), platforms=("cpu", "gpu"))(spec)
