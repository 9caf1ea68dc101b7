"""Snapshots: list, create, rename, restore, clone, delete."""

from .paths import dataset_path, seg
from .uploads import task_id_from


def _snapshots(dataset_id, snapshot_id=None):
    base = f"{dataset_path(dataset_id)}/snapshot"
    return base if snapshot_id is None else f"{base}/{seg(snapshot_id)}"


class SnapshotsApi:
    def snapshots(self, dataset_id):
        """The dataset's snapshots, newest first."""
        return self._get(_snapshots(dataset_id))

    def create_snapshot(self, dataset_id, name=None, description=None):
        """Snapshots a READY dataset; the new snapshot is current."""
        body = {k: v for k, v in (("name", name), ("description", description)) if v is not None}
        return self.transport.request("POST", _snapshots(dataset_id), json=body).json()

    def rename_snapshot(self, dataset_id, snapshot_id, name=None, description=None):
        body = {k: v for k, v in (("name", name), ("description", description)) if v is not None}
        return self.transport.request("PATCH", _snapshots(dataset_id, snapshot_id), json=body, idempotent=True).json()

    def restore_snapshot(self, dataset_id, snapshot_id, wait=True, timeout=600.0):
        """Restores the dataset to a snapshot (an id or 'current'): {task_id, dataset}."""
        response = self.transport.request("POST", f"{_snapshots(dataset_id, snapshot_id)}/restore")
        task_id = task_id_from(response)
        if wait and task_id:
            self.wait_for_task(task_id, timeout=timeout)
        elif wait:
            self.wait_for_dataset(dataset_id, until=("READY",), timeout=timeout)
        return {"task_id": task_id, "dataset": self.dataset(dataset_id)}

    def clone_snapshot(self, dataset_id, snapshot_id, wait=True, timeout=600.0):
        """Clones a snapshot into a new dataset: {task_id, dataset_id, dataset} (the new one; READY when `wait`)."""
        response = self.transport.request("POST", f"{_snapshots(dataset_id, snapshot_id)}/clone")
        task_id = task_id_from(response)
        if not task_id:
            return {"task_id": None, "dataset_id": None, "dataset": None}
        task = self.wait_for_task(task_id, timeout=timeout) if wait else self.task(task_id)
        return {"task_id": task_id, "dataset_id": task["dataset_id"], "dataset": self.dataset(task["dataset_id"])}

    def delete_snapshot(self, dataset_id, snapshot_id):
        """Soft-deletes a snapshot (not the current one)."""
        self.transport.request("DELETE", _snapshots(dataset_id, snapshot_id))
