"""Wrong: right values, but a Python loop issues one scatter per id, unrolled into the program."""


def apply_discounts(prices, ids, rates):
    for k in range(ids.shape[0]):
        prices = prices.at[ids[k]].divide(rates[k])
    return prices


def sharpen(probs, ids, exponents):
    for k in range(ids.shape[0]):
        probs = probs.at[ids[k]].power(exponents[k])
    return probs


def transform(values, ids, fn):
    for k in range(ids.shape[0]):
        values = values.at[ids[k]].apply(fn)
    return values
