"""The Loupe client: one object per server and key pair; each area of the API is a mixin in its own module."""

import os

from .auth import TokenSource
from .datasets import DatasetsApi
from .enrichment import EnrichmentApi
from .explore import ExploreApi
from .exports import ExportsApi
from .http import Transport
from .notifications import NotificationsApi
from .snapshots import SnapshotsApi
from .tasks import TasksApi
from .uploads import UploadsApi


class Client(DatasetsApi, UploadsApi, ExploreApi, SnapshotsApi, ExportsApi, EnrichmentApi, TasksApi, NotificationsApi):
    """Client(url, api_key, api_secret): signs its own tokens (token_ttl seconds), retries, raises LoupeError."""

    def __init__(self, url, api_key=None, api_secret=None, token=None, retries=4, timeout=60.0, token_ttl=900, user_agent="loupe-python-client"):
        self.url = url.rstrip("/")
        self.tokens = TokenSource(api_key, api_secret, token, token_ttl)
        self.transport = Transport(self.url, self.tokens, retries=retries, timeout=timeout, user_agent=user_agent)

    @classmethod
    def from_env(cls, env=None, **options):
        """A client from LOUPE_URL, LOUPE_API_KEY and LOUPE_API_SECRET."""
        env = os.environ if env is None else env
        return cls(env["LOUPE_URL"], env.get("LOUPE_API_KEY"), env.get("LOUPE_API_SECRET"), **options)

    def request(self, method, path, query=None, json=None, body=None, idempotent=None):
        """Any route, for what the methods do not cover: the parsed JSON answer (None for an empty body)."""
        return self.transport.request(method, path, query=query, json=json, body=body, idempotent=idempotent).json()

    def _get(self, path, **query):
        return self.transport.request("GET", path, query=query).json()

    def me(self):
        """The signed-in user."""
        return self._get("/api/v1/auth/me")
