"""Refused: counts computed at import as lengths of lists, where the task asks for Python ints."""

KEPT_PLAIN = len(["x", "cos", "h", "tanh", "1 - tanh**2"])
KEPT_CHECKPOINTED = len(["x"])
KEPT_DOTS_SAVEABLE = len(["x", "x @ w1", "h @ w2"])
KEPT_SAVE_H = len(["x", "h"])
