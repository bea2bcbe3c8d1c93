"""Wrong: thinks only a new value of n compiles (no types, no keywords, no shapes), and that every call of the static loop compiles."""

COMPILING_CALLS = {1, 2}
COMPILES_STATIC = 10
COMPILES_TRACED = 1
