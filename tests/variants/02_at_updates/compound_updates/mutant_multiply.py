"""Wrong: multiplies by the rates instead of dividing (and squares instead of raising to the exponents)."""


def apply_discounts(prices, ids, rates):
    return prices.at[ids].multiply(rates)


def sharpen(probs, ids, exponents):
    return probs.at[ids].multiply(probs[ids])


def transform(values, ids, fn):
    return values.at[ids].apply(fn)
