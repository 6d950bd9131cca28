"""The third level of a chain (chain.py → lib/comm/relay.py → here) and a helper two others share
(diamond.py → lib/fan/right.py → here): a wait, inlined into an InCore kernel, gets its
cacheinvalid here, inserted once whoever reaches it."""

import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.inline
def wait_peer(sig: pld.DistributedTensor[[2, 1], pl.INT32]):
    pld.system.wait(signal=sig, offsets=[1, 0], expected=1, cmp=pld.WaitCmp.Ge)
    return sig
