"""Wrong: makes the gain a weak Python float but leaves y's dtype alone, so bfloat16 + float16 still gives float32."""


def blend(x, y, gain):
    return x + float(gain) * y
