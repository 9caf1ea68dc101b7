"""Datasets: list, read, rename, delete, share, and waiting for a status."""

from .paging import pages
from .paths import dataset_path, seg
from .waiting import poll


class DatasetsApi:
    def datasets(self, page_size=100):
        """Every dataset the caller owns or shares, newest first (all pages)."""
        return pages(lambda limit, offset: self._get("/api/v1/datasets", limit=limit, offset=offset), lambda page: page, page_size)

    def dataset(self, dataset_id):
        """The dataset: id, display_name, status_new, n_images, n_videos, n_objects, progress, ..."""
        return self._get(dataset_path(dataset_id))

    def update_dataset(self, dataset_id, display_name=None, description=None):
        changes = {k: v for k, v in (("display_name", display_name), ("description", description)) if v is not None}
        return self.transport.request("PATCH", dataset_path(dataset_id), json=changes, idempotent=True).json()

    def rename_dataset(self, dataset_id, name):
        return self.update_dataset(dataset_id, display_name=name)

    def delete_dataset(self, dataset_id):
        self.transport.request("DELETE", dataset_path(dataset_id))

    def share(self, dataset_id, user_email, role="viewer"):
        """Gives a user viewer or editor access; returns their access entry."""
        return self.transport.request("POST", f"{dataset_path(dataset_id)}/share", json={"user_email": user_email, "role": role}, idempotent=True).json()

    def shared_with(self, dataset_id):
        """Who has access: the owner first, then shared users ({user_id, email, role, granted_at})."""
        return self._get(f"/api/v1/manage/{seg(dataset_id)}/share")["users"]

    def unshare(self, dataset_id, user_email):
        self.transport.request("DELETE", f"/api/v1/manage/{seg(dataset_id)}/share", query={"user_email": user_email})

    def wait_for_dataset(self, dataset_id, until=("READY",), fail_on=("ERROR",), timeout=600.0, interval=1.0, on_progress=None):
        """Polls the dataset until its status_new is in `until`; LoupeError on `fail_on` or the timeout."""
        return poll(
            lambda: self.dataset(dataset_id),
            lambda d: d["status_new"],
            tuple(until),
            tuple(fail_on),
            f"dataset {dataset_id}",
            timeout,
            interval,
            on_progress,
            why=lambda d: d.get("fatal_error_msg"),
        )
