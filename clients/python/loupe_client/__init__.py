"""A dependency-free Python client for the Loupe API: `Client(url, api_key, api_secret)`."""

from .client import Client
from .errors import LoupeError
from .walk import walk_media

__all__ = ["Client", "LoupeError", "walk_media"]
