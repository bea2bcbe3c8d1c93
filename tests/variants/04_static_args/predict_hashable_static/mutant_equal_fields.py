"""Wrong: thinks objects with equal fields are one key whatever their class, and that a list works like a tuple."""

COMPILING_CALLS = {1, 3, 4, 7, 8}
RAISING_CALL = 6
