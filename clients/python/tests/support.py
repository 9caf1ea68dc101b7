"""What the server tests share: the server from the environment and one dataset of the fixture photos."""

import os

from loupe_client import Client

HERE = os.path.dirname(os.path.abspath(__file__))
PHOTOS = os.environ.get("LOUPE_TEST_PHOTOS") or os.path.normpath(os.path.join(HERE, "..", "..", "..", "test", "fixtures", "photos"))
DATASET_NAME = "python client photos"


def env(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: these tests talk to a running Loupe server (see clients/python/README.md)")
    return value


def client(**options):
    return Client(env("LOUPE_URL"), env("LOUPE_API_KEY"), env("LOUPE_API_SECRET"), **options)


_created = {}


def photos_dataset():
    """The dataset create_dataset made from the fixture photos (made once per run), with what it reported."""
    if "dataset" not in _created:
        reports = []
        dataset = client().create_dataset(DATASET_NAME, PHOTOS, wait=True, progress=reports.append)
        _created["dataset"] = dataset
        _created["progress"] = reports
    return _created["dataset"], _created["progress"]
