"""Changing the photos dataset in order: snapshot, add media (a watched view alerts), duplicates, export, notifications,\nrestore and clone."""

import os
import shutil
import tempfile
import time
import unittest
import urllib.parse
import zipfile

from cutting_proxy import CuttingProxy
from loupe_client import Client, LoupeError
from support import PHOTOS, client, env, photos_dataset


class FlowTest(unittest.TestCase):
    """Steps numbered to run in order; each leaves the dataset READY."""

    @classmethod
    def setUpClass(cls):
        cls.client = client()
        cls.dataset = photos_dataset()[0]
        cls.id = cls.dataset["id"]
        cls.folder = tempfile.mkdtemp(prefix="loupe-flow-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def test_1_snapshots_create_list_rename_delete(self):
        made = self.client.create_snapshot(self.id, name="before additions", description="seven photos and a heic")
        self.assertEqual((made["snapshot_name"], made["is_current"], made["reason"], made["n_images"]), ("before additions", True, "manual", 8))
        listed = self.client.snapshots(self.id)
        self.assertEqual(listed[0]["snapshot_id"], made["snapshot_id"])
        self.assertEqual(self.client.rename_snapshot(self.id, made["snapshot_id"], name="eight images")["snapshot_name"], "eight images")
        with self.assertRaises(LoupeError) as caught:
            self.client.delete_snapshot(self.id, made["snapshot_id"])
        self.assertEqual(caught.exception.status, 409)
        older = [s for s in listed if not s["is_current"]]
        self.client.delete_snapshot(self.id, older[0]["snapshot_id"])
        self.assertNotIn(older[0]["snapshot_id"], [s["snapshot_id"] for s in self.client.snapshots(self.id)])

    def test_2_add_media_is_one_task_and_waits_for_it(self):
        self.client.request("POST", f"/api/v1/dataset/{self.id}/views", json={"name": "everything new", "monitoring_enabled": True, "alerting_enabled": True})
        os.makedirs(os.path.join(self.folder, "more"))
        shutil.copy(os.path.join(PHOTOS, "dog.jpg"), os.path.join(self.folder, "more", "dog-again.jpg"))
        with open(os.path.join(self.folder, "README.txt"), "w") as handle:
            handle.write("not media")
        result = self.client.add_media(self.id, self.folder, wait=True, auto_reindex=True)
        self.assertEqual((result["dataset"]["status_new"], result["dataset"]["n_images"], result["skipped"]), ("READY", 9, 1))
        task = self.client.task(result["task_id"])
        self.assertEqual((task["task_type"], task["status"], task["dataset_id"]), ("MEDIA_ADDITION", "COMPLETED", self.id))

    def test_3_duplicates_find_the_copy_and_the_heic_of_the_same_photo(self):
        ids = {m["file_name"]: m["media_id"] for m in self.client.media(self.id)}
        found = self.client.duplicates(self.id, ids["dog.jpg"])
        self.assertEqual(found["media_id"], ids["dog.jpg"])
        self.assertEqual(sorted(found["duplicates"]), sorted([ids["dog-again.jpg"], ids["small.heic"]]))

    def test_4_export_parquet_with_images_to_a_file(self):
        path = os.path.join(self.folder, "photos.zip")
        seen = []
        result = self.client.export(self.id, format="parquet", include_images=True, path=path, progress=lambda done, total: seen.append((done, total)))
        self.assertEqual((result["path"], result["bytes"]), (path, os.path.getsize(path)))
        self.assertEqual(seen[-1], (result["bytes"], result["bytes"]))
        self.assertFalse(os.path.exists(path + ".part"))
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            self.assertIn("metadata.parquet", names)
            self.assertEqual(len([n for n in names if n.startswith("images/")]), 9)
            with archive.open("metadata.parquet") as metadata:
                self.assertEqual(metadata.read(4), b"PAR1")
        self.assertEqual(self.client.export_status(self.id, result["export_id"])["status"], "COMPLETED")
        FlowTest.export = result

    def test_4b_a_dropped_download_resumes_where_it_stopped(self):
        proxy = CuttingProxy(urllib.parse.urlsplit(env("LOUPE_URL")).port, cut_after=100_000)
        self.addCleanup(proxy.close)
        proxied = Client(proxy.url, env("LOUPE_API_KEY"), env("LOUPE_API_SECRET"))
        path = os.path.join(self.folder, "resumed.zip")
        result = proxied.download(self.id, self.export["export_id"], path)
        self.assertTrue(proxy.cut)
        downloads = [(line.split(" ")[1].split("?")[0], ranges) for line, ranges in proxy.requests if " /api/v1/exports/" in line]
        where = f"/api/v1/exports/{self.export['export_id']}/download"
        self.assertEqual(downloads[0], (where, None))
        self.assertEqual(downloads[1][0], where)
        self.assertRegex(downloads[1][1], r"^bytes=\d+-$")
        self.assertLessEqual(int(downloads[1][1][6:-1]), 100_000)
        self.assertEqual(result["bytes"], self.export["bytes"])
        with open(path, "rb") as resumed, open(self.export["path"], "rb") as whole:
            self.assertTrue(resumed.read() == whole.read(), "the resumed file equals the one downloaded whole")

    def test_5_the_alert_is_listed_streamed_and_marked_read(self):
        deadline = time.monotonic() + 20
        while not (listed := list(self.client.notifications(dataset_id=self.id))) and time.monotonic() < deadline:
            time.sleep(0.5)
        self.assertEqual(len(listed), 1)
        alert = listed[0]
        self.assertEqual((alert["metadata"]["is_alert"], alert["metadata"]["view_name"], alert["metadata"]["result_count"]), (True, "everything new", 1))
        self.assertEqual(self.client.unread_count(self.id), 1)

        stream = self.client.notification_stream(last_event_id="0", dataset_id=self.id)
        try:
            event = next(stream)
        finally:
            stream.close()
        self.assertEqual((event["event"], event["data"]["id"]), ("notification", alert["id"]))
        self.assertRegex(event["id"], r"^[0-9]+$")

        # A connection silent for a second is dropped; the next sends the last id seen, so nothing comes twice.
        connects, notifications = [], []
        stream = self.client.notification_stream(last_event_id="0", dataset_id=self.id, include_pings=True, read_timeout=1.0, on_connect=connects.append)
        try:
            for e in stream:
                if e["event"] == "notification":
                    notifications.append(e["data"]["id"])
                # Done when a whole connection after the alert passed without it, or after too many tries.
                if connects[-2:] == [event["id"]] * 2 or len(connects) >= 8:
                    break
        finally:
            stream.close()
        self.assertEqual(connects[0], "0")
        self.assertEqual(connects[-2:], [event["id"]] * 2)
        self.assertEqual(notifications, [alert["id"]])

        self.client.mark_read(alert["id"])
        self.assertEqual(self.client.unread_count(self.id), 0)
        with self.assertRaises(LoupeError) as caught:
            self.client.mark_read(alert["id"])
        self.assertEqual(caught.exception.status, 404)
        self.assertEqual(self.client.mark_all_read(), 0)

    def test_6_restore_and_clone_follow_their_tasks(self):
        eight = next(s for s in self.client.snapshots(self.id) if s["snapshot_name"] == "eight images")
        restored = self.client.restore_snapshot(self.id, eight["snapshot_id"])
        self.assertEqual((restored["dataset"]["status_new"], restored["dataset"]["n_images"]), ("READY", 8))
        self.assertEqual(self.client.task(restored["task_id"])["task_type"], "SNAPSHOT_RESTORE")
        cloned = self.client.clone_snapshot(self.id, eight["snapshot_id"])
        self.assertNotEqual(cloned["dataset_id"], self.id)
        self.assertEqual((cloned["dataset"]["display_name"], cloned["dataset"]["status_new"], cloned["dataset"]["n_images"]), ("python client photos (cloned)", "READY", 8))
        self.assertEqual(self.client.task(cloned["task_id"])["task_type"], "SNAPSHOT_CLONE")
        self.client.delete_dataset(cloned["dataset_id"])
        self.assertNotIn(cloned["dataset_id"], [d["id"] for d in self.client.datasets()])


if __name__ == "__main__":
    unittest.main()
