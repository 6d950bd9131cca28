"""The comm package: re-exports its helpers (`from comm import ping` finds ops.ping)."""

from .ops import ping, wait_one
