"""Wrong: converts y but keeps the gain as given: a NumPy float32 scalar is strongly typed and still promotes."""


def blend(x, y, gain):
    return x + gain * y.astype(x.dtype)
