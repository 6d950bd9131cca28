"""A module without any @pl.program prints nothing."""

import pypto.language as pl

N = 8


def helper(x):
    return x + N
