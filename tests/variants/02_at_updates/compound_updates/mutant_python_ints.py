"""Wrong: walks the ids as Python ints, which needs their values: right eagerly, but it cannot trace under jit."""


def apply_discounts(prices, ids, rates):
    for i, rate in zip(ids.tolist(), rates):
        prices = prices.at[i].divide(rate)
    return prices


def sharpen(probs, ids, exponents):
    return probs.at[ids].power(exponents)


def transform(values, ids, fn):
    return values.at[ids].apply(fn)
