"""Wrong: thinks autodiff keeps each layer's input only, and that every policy keeps one array more than the default."""

KEPT_PLAIN = 1
KEPT_CHECKPOINTED = 1
KEPT_DOTS_SAVEABLE = 2
KEPT_SAVE_H = 2
