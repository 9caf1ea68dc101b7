"""Exports: start, wait, and stream the ZIP to disk."""

import http.client
import os
import time

from .errors import LoupeError
from .paths import dataset_path
from .waiting import poll

CHUNK = 1 << 20


class ExportsApi:
    def start_export(self, dataset_id, format="parquet", include_images=False, file_name=None, media_ids=None, cluster_ids=None):
        """Starts an export of the whole dataset, or of media and clusters when given; returns the export id."""
        query = {"export_format": format, "include_images": include_images, "file_name": file_name or f"{dataset_id}.zip"}
        if media_ids is None and cluster_ids is None:
            return self._get(f"{dataset_path(dataset_id)}/export_context_async", **query)["id"]
        selection = []
        if media_ids:
            selection.append({"type": "media", "payload": {"media_ids": list(media_ids)}})
        for cluster_id in cluster_ids or ():
            selection.append({"type": "cluster", "payload": {"cluster_id": cluster_id, "cluster_filters": {"entity_type": "IMAGES"}, "exclude_media_ids": []}})
        path = f"{dataset_path(dataset_id)}/export_entities_async"
        return self.transport.request("POST", path, query=query, json={"media_selection": selection}).json()["id"]

    def export_status(self, dataset_id, export_id):
        """{status, download_uri, ...}: PENDING, COMPLETED, FAILED or REJECTED."""
        return self._get(f"{dataset_path(dataset_id)}/export_status", export_task_id=export_id)

    def wait_for_export(self, dataset_id, export_id, timeout=600.0, interval=1.0, on_progress=None):
        return poll(
            lambda: self.export_status(dataset_id, export_id),
            lambda s: s["status"],
            ("COMPLETED",),
            ("FAILED", "REJECTED"),
            f"export {export_id}",
            timeout,
            interval,
            on_progress,
            why=lambda s: s.get("result_message"),
        )

    def download(self, dataset_id, export_id, path, progress=None):
        """Streams a completed export's ZIP to `path` (through path + '.part'), resuming with a Range request after a
        dropped connection: {path, bytes}. progress(done, total)."""
        uri = self.export_status(dataset_id, export_id).get("download_uri")
        if not uri:
            raise LoupeError(0, f"Export {export_id} has no download yet")
        partial = f"{path}.part"
        done, total, drops = 0, None, 0
        with open(partial, "wb") as out:
            while True:
                try:
                    done, total = self._download_from(uri, out, done, total, progress)
                    if total is None or done >= total:
                        break
                    reason = "the connection closed early"
                except (OSError, http.client.HTTPException) as err:
                    reason = err
                drops += 1
                if drops > self.transport.retries:
                    raise LoupeError(0, f"Download of export {export_id} stopped after {done} bytes: {reason}")
                time.sleep(min(8.0, 0.25 * 2 ** drops))
        if total is not None and done != total:
            raise LoupeError(0, f"Download of export {export_id} ended after {done} of {total} bytes")
        os.replace(partial, path)
        return {"path": path, "bytes": done}

    def _download_from(self, uri, out, done, total, progress):
        headers = {"Accept": "application/zip"}
        if done:
            headers["Range"] = f"bytes={done}-"
        # The link is signed: it needs no token, and a redirect to a bucket must not carry one.
        with self.transport.request("GET", uri, stream=True, auth=False, headers=headers) as response:
            if done and response.status != 206:
                out.seek(0)
                out.truncate()
                done = 0
            if total is None:
                length = response.headers.get("Content-Length")
                total = done + int(length) if length else None
            while True:
                chunk = response.read(CHUNK)
                if not chunk:
                    return done, total
                out.write(chunk)
                done += len(chunk)
                if progress:
                    progress(done, total)

    def export(self, dataset_id, format="parquet", include_images=True, path="out.zip", media_ids=None, cluster_ids=None, progress=None, timeout=600.0):
        """Starts an export, waits for it and downloads the ZIP to `path`: {path, bytes, export_id}."""
        export_id = self.start_export(dataset_id, format, include_images, os.path.basename(path), media_ids, cluster_ids)
        self.wait_for_export(dataset_id, export_id, timeout=timeout)
        return {**self.download(dataset_id, export_id, path, progress), "export_id": export_id}
