"""The bottom layer: plain Python every other layer shares (no JAX)."""
