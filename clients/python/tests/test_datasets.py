"""A dataset from a folder of photos, then reading it: list, explore, similarity, media, tasks, errors."""

import os
import shutil
import tempfile
import unittest

from loupe_client import Client, LoupeError
from support import DATASET_NAME, PHOTOS, client, env, photos_dataset

UNKNOWN = "00000000-0000-4000-8000-000000000000"


class DatasetTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = client()
        cls.dataset, cls.progress = photos_dataset()

    def test_create_dataset_waits_for_ready_and_reports_progress(self):
        d = self.dataset
        self.assertEqual((d["display_name"], d["status_new"], d["n_images"], d["n_videos"], d["skipped"]), (DATASET_NAME, "READY", 8, 0, 1))
        last = self.progress[-1]
        self.assertEqual((last["files_done"], last["files_total"], last["skipped"]), (8, 8, 1))
        self.assertEqual(last["bytes_done"], sum(os.path.getsize(os.path.join(PHOTOS, n)) for n in os.listdir(PHOTOS) if n != "SOURCES.md"))
        self.assertEqual([p["files_done"] for p in self.progress], list(range(1, 9)))

    def test_datasets_lists_it_and_dataset_reads_it(self):
        listed = [d for d in self.client.datasets(page_size=1) if d["id"] == self.dataset["id"]]
        self.assertEqual(len(listed), 1)
        self.assertEqual(self.client.dataset(self.dataset["id"])["display_name"], DATASET_NAME)

    def test_rename_and_share(self):
        renamed = self.client.rename_dataset(self.dataset["id"], "renamed for a moment")
        self.assertEqual(renamed["display_name"], "renamed for a moment")
        self.assertEqual(self.client.rename_dataset(self.dataset["id"], DATASET_NAME)["display_name"], DATASET_NAME)
        spare = Client(env("LOUPE_URL"), env("LOUPE_SPARE_API_KEY"), env("LOUPE_SPARE_API_SECRET"))
        email = spare.me()["email"]
        self.assertEqual(self.client.share(self.dataset["id"], email, "viewer")["role"], "viewer")
        self.assertIn((email, "viewer"), [(e["email"], e["role"]) for e in self.client.shared_with(self.dataset["id"])])
        self.assertEqual(spare.dataset(self.dataset["id"])["id"], self.dataset["id"])
        self.client.unshare(self.dataset["id"], email)
        with self.assertRaises(LoupeError) as caught:
            spare.dataset(self.dataset["id"])
        self.assertEqual((caught.exception.status, caught.exception.detail), (404, "Dataset not found"))

    def test_enrichment_models_and_context(self):
        models = self.client.enrichment_models(self.dataset["id"])
        self.assertTrue(all({"id", "type", "status"} <= set(m) for m in models))
        self.assertEqual(self.client.enrichment_context(self.dataset["id"])["status"], "NEW")

    def test_explore_level_0(self):
        page = self.client.explore(self.dataset["id"], level=0)
        self.assertEqual((page["threshold"], page["page_number"], page["entity_type"]), (0, 0, "IMAGES"))
        self.assertGreaterEqual(page["total_clusters"], 1)
        self.assertEqual(sum(c["n_images"] for c in page["clusters"]), self.dataset["n_images"])
        self.assertEqual(len(list(self.client.clusters(self.dataset["id"], level=0))), page["total_clusters"])
        with self.assertRaises(ValueError):
            self.client.explore(self.dataset["id"], level=5)

    def test_explore_of_an_unknown_dataset_raises_404_with_the_detail(self):
        with self.assertRaises(LoupeError) as caught:
            self.client.explore(UNKNOWN)
        self.assertEqual((caught.exception.status, caught.exception.detail), (404, "Dataset not found"))
        self.assertEqual(str(caught.exception), f"404: Dataset not found (GET /api/v1/explore/{UNKNOWN})")

    def test_a_validation_error_keeps_the_servers_words(self):
        with self.assertRaises(LoupeError) as caught:
            self.client.explore(self.dataset["id"], issue_type="outliers", sort_by="nonsense")
        self.assertEqual(caught.exception.status, 422)
        self.assertIn("sort_by", caught.exception.detail)

    def test_media_iterates_every_item(self):
        media = list(self.client.media(self.dataset["id"], page_size=3))
        self.assertEqual(len(media), 8)
        self.assertEqual(len({m["media_id"] for m in media}), 8)
        item = self.client.media_item(self.dataset["id"], media[0]["media_id"])
        self.assertEqual(item["file_name"], media[0]["file_name"])

    def test_similar_by_media_id_ranks_the_media_itself_first(self):
        dog = next(m for m in self.client.media(self.dataset["id"]) if m["file_name"] == "dog.jpg")
        page = self.client.similar(self.dataset["id"], media_id=dog["media_id"])
        best = page["clusters"][0]["previews"][0]
        self.assertEqual(best["media_id"], dog["media_id"])
        self.assertAlmostEqual(best["relevance_score"], 0, places=5)

    def test_similar_by_image_file_finds_that_photo(self):
        page = self.client.similar(self.dataset["id"], image_path=os.path.join(PHOTOS, "kite.jpg"))
        self.assertEqual(page["clusters"][0]["previews"][0]["file_name"], "kite.jpg")

    def test_the_creation_task_is_listed_and_readable(self):
        task_id = self.dataset["task_id"]
        listed = list(self.client.tasks(dataset_id=self.dataset["id"], page_size=5))
        self.assertIn(task_id, [t["task_id"] for t in listed])
        task = self.client.task(task_id)
        self.assertEqual((task["task_type"], task["status"], task["dataset_id"]), ("DATASET_CREATION", "COMPLETED", self.dataset["id"]))
        with self.assertRaises(LoupeError) as caught:
            self.client.task(UNKNOWN)
        self.assertEqual((caught.exception.status, caught.exception.detail), (404, "Task not found"))
        with self.assertRaises(LoupeError) as caught:
            self.client.abort_task(task_id)
        self.assertEqual(caught.exception.status, 409)
        self.assertTrue(caught.exception.detail.startswith("Task cannot be aborted: "), caught.exception.detail)
        with self.assertRaises(LoupeError) as caught:
            self.client.retry_task(task_id)
        self.assertEqual(caught.exception.status, 400)
        self.assertTrue(caught.exception.detail.startswith("Task cannot be retried: "), caught.exception.detail)
        self.assertIn(self.dataset["id"], self.client.task_filters()["dataset_ids"])

    def test_a_folder_without_media_is_refused_before_any_request(self):
        folder = tempfile.mkdtemp(prefix="loupe-empty-")
        self.addCleanup(shutil.rmtree, folder)
        with open(os.path.join(folder, "notes.txt"), "w") as handle:
            handle.write("no media here")
        before = len(list(self.client.datasets()))
        with self.assertRaises(LoupeError) as caught:
            self.client.create_dataset("nothing", folder)
        self.assertEqual(len(list(self.client.datasets())), before)
        self.assertEqual(caught.exception.status, 0)
        self.assertEqual(caught.exception.detail, f"No images or videos in {folder} (1 other files skipped)")


if __name__ == "__main__":
    unittest.main()
