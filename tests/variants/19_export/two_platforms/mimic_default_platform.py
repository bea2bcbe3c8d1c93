"""Values right here, idea skipped: exports for the default platform only, so a CUDA server refuses the artefact."""

import jax


def export_for_servers(f, spec):
    return jax.export.export(jax.jit(f))(spec)
