"""Wrong: thinks keeping h spares the matmuls, and keeping the matmul outputs spares the sine."""

MATMULS_PLAIN = 6
MATMULS_CHECKPOINTED = 8
MATMULS_DOTS_SAVEABLE = 6
MATMULS_SAVE_H = 6
SINES_PLAIN = 1
SINES_CHECKPOINTED = 2
SINES_DOTS_SAVEABLE = 1
SINES_SAVE_H = 1
