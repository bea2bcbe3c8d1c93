"""Wrong: thinks every new object compiles, frozen or not, and that the plain object raises."""

COMPILING_CALLS = {1, 2, 3, 6, 7}
RAISING_CALL = 4
