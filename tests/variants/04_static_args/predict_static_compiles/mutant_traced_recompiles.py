"""Wrong: thinks equal values are one key (2.0 == 2, keyword or not), and that a traced argument recompiles per value."""

COMPILING_CALLS = {1, 2, 6, 9}
COMPILES_STATIC = 3
COMPILES_TRACED = 3
