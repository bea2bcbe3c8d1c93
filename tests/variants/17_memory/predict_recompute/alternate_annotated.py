"""Right, written otherwise: annotations and trailing comments."""

MATMULS_PLAIN: int = 6  # 2 forward, 4 backward
MATMULS_CHECKPOINTED: int = 8  # and both recomputed
MATMULS_DOTS_SAVEABLE = 6
MATMULS_SAVE_H = 8
SINES_PLAIN = 1
SINES_CHECKPOINTED = 2
SINES_DOTS_SAVEABLE = 2
SINES_SAVE_H = 1
