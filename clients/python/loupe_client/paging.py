"""Iterating every page of a limit/offset list."""


def pages(fetch, items_of, page_size):
    """Yields each item of fetch(limit, offset) for offset = 0, page_size, ... until a short page."""
    offset = 0
    while True:
        items = items_of(fetch(page_size, offset))
        yield from items
        if len(items) < page_size:
            return
        offset += page_size
