"""Polling until a value reaches a wanted state, no faster than once a second."""

import time

from .errors import LoupeError

MIN_INTERVAL = 1.0


def poll(fetch, state_of, until, fail_on, what, timeout=600.0, interval=MIN_INTERVAL, on_progress=None, why=None):
    """Calls `fetch` until state_of(value) is in `until` (returns the value); a state in `fail_on` or the timeout raise LoupeError."""
    deadline = time.monotonic() + timeout
    interval = max(MIN_INTERVAL, interval)
    while True:
        value = fetch()
        if on_progress:
            on_progress(value)
        state = state_of(value)
        if state in until:
            return value
        if state in fail_on:
            reason = why(value) if why else None
            raise LoupeError(0, f"{what} is {state}" + (f": {reason}" if reason else ""))
        if time.monotonic() + interval > deadline:
            raise LoupeError(0, f"Timed out after {timeout:g} s waiting for {what} to be {' or '.join(until)} (it is {state})")
        time.sleep(interval)
