"""Wrong: counts the forward pass only, and thinks checkpointing recomputes nothing it can see."""

MATMULS_PLAIN = 2
MATMULS_CHECKPOINTED = 2
MATMULS_DOTS_SAVEABLE = 2
MATMULS_SAVE_H = 2
SINES_PLAIN = 1
SINES_CHECKPOINTED = 1
SINES_DOTS_SAVEABLE = 1
SINES_SAVE_H = 1
