"""Refused: each count as arithmetic (forward + backward + recomputed), worked out at import, where the
task asks for Python ints."""

MATMULS_PLAIN = 2 + 4 + 0
MATMULS_CHECKPOINTED = 2 + 4 + 2
MATMULS_DOTS_SAVEABLE = 2 + 4 + 0
MATMULS_SAVE_H = 2 + 4 + 2
SINES_PLAIN = 1 + 0
SINES_CHECKPOINTED = 1 + 1
SINES_DOTS_SAVEABLE = 1 + 1
SINES_SAVE_H = 1 + 0
