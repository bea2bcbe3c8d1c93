"""A refused form: shapes as lists, where the task asks for tuples of ints."""

SHAPE_A = [5, 4]
SHAPE_B = [4, 5]
SHAPE_C = [2, 4]
SHAPE_D = [2, 5, 4]
SHAPE_E = [5, 2, 4]
