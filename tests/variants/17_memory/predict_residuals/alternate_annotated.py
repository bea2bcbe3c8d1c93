"""Right, written otherwise: annotated, with comments."""

KEPT_PLAIN: int = 5  # x, cos(x @ w1), h, tanh(...), 1 - tanh(...)**2
KEPT_CHECKPOINTED: int = 1  # x
KEPT_DOTS_SAVEABLE: int = 3  # x and both matmul outputs
KEPT_SAVE_H: int = 2  # x and h
