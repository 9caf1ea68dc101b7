"""Creating a dataset from a folder, adding media to one, and reindexing."""

import os

from .errors import LoupeError
from .multipart import MultipartBody
from .paths import dataset_path, seg
from .progress import UploadProgress
from .walk import walk_media

TASK_PATH = "/api/v1/tasks/"


def task_id_from(response):
    """The task a 202 started, from its Location header (/api/v1/tasks/{task_id}); None when the server names none."""
    location = response.headers.get("location") or ""
    index = location.find(TASK_PATH)
    if index < 0:
        return None
    return location[index + len(TASK_PATH):].split("?")[0] or None


def _media_of(folder):
    files, skipped = walk_media(folder)
    if not files:
        raise LoupeError(0, f"No images or videos in {folder} ({len(skipped)} other files skipped)")
    return files, skipped


class UploadsApi:
    def create_dataset(self, name, folder, wait=True, batch_size=50, progress=None, timeout=600.0):
        """New dataset from a folder (recursive; non-media skipped): new_dataset, data_files, batches, process_files.

        Returns the dataset dict, READY when `wait` (LoupeError if it ends in ERROR). `progress(dict)` after each file;
        the dict's `skipped` counts files that are not media; the returned dict carries `task_id` and `skipped` too.
        """
        files, skipped = _media_of(folder)
        dataset_id = self._get("/api/v1/ingestion/new_dataset", dataset_name=name)["dataset_id"]
        base = f"/api/v1/ingestion/{seg(dataset_id)}"
        trans_id = self._get(f"{base}/data_files")["trans_id"]
        meter = UploadProgress(files, len(skipped), progress)
        try:
            for start in range(0, len(files), batch_size):
                batch = files[start:start + batch_size]
                body = MultipartBody(files=[("files", f["path"], f["relative"]) for f in batch], on_file=meter.file_sent)
                self.transport.request("POST", f"{base}/data_files/{trans_id}", body=body)
            started = self.transport.request("POST", f"{base}/process_files/{trans_id}").json()
        except LoupeError as err:
            # The empty dataset exists by now: say which, so it can be deleted or filled.
            err.dataset_id = dataset_id
            raise
        dataset = self.wait_for_dataset(dataset_id, timeout=timeout) if wait else self.dataset(dataset_id)
        return {**dataset, "task_id": started["task_id"], "skipped": len(skipped)}

    def add_media(self, dataset_id, folder, wait=True, auto_reindex=False, progress=None, timeout=600.0, files_per_request=500):
        """Adds a folder's media: {task_id, task_ids, dataset, skipped}.

        Each add_media request is one MEDIA_ADDITION task. A folder over files_per_request files (the server's
        MAX_FILES_PER_REQUEST, default 500) goes as several requests, each task awaited before the next, since the
        dataset refuses another while one runs; task_id is the last, and auto_reindex applies to the last.
        """
        files, skipped = _media_of(folder)
        meter = UploadProgress(files, len(skipped), progress)
        per_request = max(1, files_per_request)
        parts = [files[i:i + per_request] for i in range(0, len(files), per_request)]
        form = lambda part, fields: MultipartBody(fields, [("files", f["path"], f["relative"]) for f in part], on_file=meter.file_sent)
        task_ids = []
        for part in parts[:-1]:
            task_id = self._start_media_addition(dataset_id, form(part, []), True, timeout)["task_id"]
            if not task_id:
                raise LoupeError(0, "add_media answered without the Location of its task")
            task_ids.append(task_id)
        result = self._start_media_addition(dataset_id, form(parts[-1], [("auto_reindex", "true")] if auto_reindex else []), wait, timeout)
        if result["task_id"]:
            task_ids.append(result["task_id"])
        return {**result, "task_ids": task_ids, "skipped": len(skipped)}

    def add_media_archive(self, dataset_id, archive_path, wait=True, auto_reindex=False, timeout=600.0):
        """Adds the media of a .zip, .tar or .tar.gz archive as one batch: {task_id, dataset}."""
        fields = [("auto_reindex", "true")] if auto_reindex else []
        body = MultipartBody(fields, [("archive", archive_path, os.path.basename(archive_path))])
        return self._start_media_addition(dataset_id, body, wait, timeout)

    def add_media_s3(self, dataset_id, s3_uri, wait=True, auto_reindex=False, timeout=600.0):
        """Adds the media under an object-storage folder or listed in a manifest: {task_id, dataset}."""
        fields = [("s3_uri", s3_uri)] + ([("auto_reindex", "true")] if auto_reindex else [])
        return self._start_media_addition(dataset_id, MultipartBody(fields), wait, timeout)

    def reindex(self, dataset_id, wait=True, timeout=600.0):
        """Reindexes a PARTIAL INDEX dataset (REINDEX task): {task_id, dataset}."""
        response = self.transport.request("POST", f"{dataset_path(dataset_id)}/reindex")
        return self._follow(dataset_id, task_id_from(response), wait, timeout)

    def _start_media_addition(self, dataset_id, body, wait, timeout):
        response = self.transport.request("POST", f"{dataset_path(dataset_id)}/add_media", body=body)
        return self._follow(dataset_id, task_id_from(response), wait, timeout)

    def _follow(self, dataset_id, task_id, wait, timeout):
        if wait and task_id:
            self.wait_for_task(task_id, timeout=timeout)
        elif wait:
            # The dataset is READ ONLY from the 202 on; it leaves that state when the work is done.
            self.wait_for_dataset(dataset_id, until=("READY", "PARTIAL INDEX"), timeout=timeout)
        return {"task_id": task_id, "dataset": self.dataset(dataset_id)}
