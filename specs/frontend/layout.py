"""Comments, docstrings, blank lines, bracket and backslash continuations, trailing commas."""

import pypto.language as pl  # the DSL
import pypto.language.distributed as pld

N = 8  # ranks


# a comment before the decorator
@pl.program
class Layout:
    """The class docstring is dropped."""

    # a comment between functions

    @pl.function(
        type=pl.FunctionType.InCore,
    )
    def kernel(self, x: pl.Tensor[[1, N], pl.FP32],
               w: pld.DistributedTensor[[1, N],
                                        pl.FP32],
               p: pl.Scalar[pl.INT32],):
        '''Function docstring, single quotes.'''
        # leading comment

        t = pl.load(
            x,
            [0, 0],
            [1, N],  # shape
        )
        pld.tile.remote_store(t, target=w,
                              peer=p, offsets=[0,
                                               0])
        total = 1 + \
            2 + \
            3

        s = 'single'  # a string in single quotes
        q = "dq with 'quotes' and \"escapes\"\n"
        for i in pl.range(
            N,
        ):
            # a comment in a body
            pass

            # trailing comment in a body
