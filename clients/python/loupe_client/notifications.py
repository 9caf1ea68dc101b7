"""Notifications: list, unread count, mark read, and the event stream that resumes where it left off."""

import http.client
import random
import socket
import time
import urllib.error

from .errors import LoupeError
from .paging import pages
from .paths import seg
from .sse import read_events

STREAM_PATH = "/api/v1/notifications/stream"


class NotificationsApi:
    def notifications(self, unread_only=False, dataset_id=None, page_size=100):
        """Every notification of the caller, newest first (all pages)."""
        fetch = lambda limit, offset: self._get("/api/v1/notifications", limit=limit, offset=offset, unread_only=unread_only, dataset_id=dataset_id)
        return pages(fetch, lambda page: page["notifications"], page_size)

    def unread_count(self, dataset_id=None):
        return self._get("/api/v1/notifications/unread-count", dataset_id=dataset_id)

    def mark_read(self, notification_id):
        self.transport.request("POST", f"/api/v1/notifications/{seg(notification_id)}/read")

    def mark_all_read(self, dataset_id=None):
        """Marks every unread notification read (or one dataset's); returns how many."""
        return self.transport.request("POST", "/api/v1/notifications/read-all", query={"dataset_id": dataset_id}, idempotent=True).json()["count"]

    def notification_stream(self, last_event_id=None, dataset_id=None, include_pings=False, read_timeout=30.0, max_backoff=30.0, on_connect=None):
        """Yields {id, event, data} as they arrive; after a dropped or silent (read_timeout) connection it reconnects
        with Last-Event-ID (the last id seen), so nothing is missed. Pings (every 3 s) only with include_pings.
        on_connect(last_event_id) is called at each connection. Close the generator to stop."""
        tries = 0
        while True:
            headers = {"Accept": "text/event-stream"}
            if last_event_id is not None:
                headers["Last-Event-ID"] = str(last_event_id)
            try:
                response = self.transport.request("GET", STREAM_PATH, query={"dataset_id": dataset_id}, headers=headers, stream=True, timeout=read_timeout)
            except LoupeError as err:
                if err.status != 0:
                    raise
                response = None
            if response is not None:
                if on_connect:
                    on_connect(last_event_id)
                try:
                    for event in read_events(response):
                        tries = 0
                        if event["id"] is not None:
                            last_event_id = event["id"]
                        if include_pings or event["event"] != "ping":
                            yield event
                except (OSError, socket.timeout, http.client.HTTPException, urllib.error.URLError):
                    pass
                finally:
                    response.close()
            time.sleep(random.uniform(0.5, 1.0) * min(max_backoff, 2 ** tries))
            tries += 1
