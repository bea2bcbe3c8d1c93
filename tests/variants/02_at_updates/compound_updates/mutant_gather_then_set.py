"""Wrong: gathers, computes and sets back, so a repeated index is updated once, not once per listing."""


def apply_discounts(prices, ids, rates):
    return prices.at[ids].set(prices[ids] / rates)


def sharpen(probs, ids, exponents):
    return probs.at[ids].set(probs[ids] ** exponents)


def transform(values, ids, fn):
    return values.at[ids].set(fn(values[ids]))
