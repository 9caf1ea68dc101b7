"""Route paths, with every id quoted as one path segment."""

from urllib.parse import quote


def seg(value):
    return quote(str(value), safe="")


def dataset_path(dataset_id):
    return f"/api/v1/dataset/{seg(dataset_id)}"
