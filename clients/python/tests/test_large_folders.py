"""A folder over the per-request file limit goes as several add_media requests (run as the spare user)."""

import os
import shutil
import tempfile
import unittest

from loupe_client import Client

from support import PHOTOS, env


class LargeFolderTest(unittest.TestCase):
    def test_add_media_splits_a_folder_over_files_per_request_into_tasks_awaited_in_turn(self):
        c = Client(env("LOUPE_URL"), env("LOUPE_SPARE_API_KEY"), env("LOUPE_SPARE_API_SECRET"))
        first, more = tempfile.mkdtemp(prefix="loupe-split-"), tempfile.mkdtemp(prefix="loupe-split-more-")
        try:
            shutil.copy(os.path.join(PHOTOS, "dog.jpg"), first)
            for name in ("horses.jpg", "kite.jpg", "person.jpg"):
                shutil.copy(os.path.join(PHOTOS, name), more)
            dataset = c.create_dataset("python split", first, wait=True)
            reports = []
            result = c.add_media(dataset["id"], more, wait=True, files_per_request=2, progress=reports.append)
            self.assertEqual(len(result["task_ids"]), 2)
            self.assertEqual(result["task_id"], result["task_ids"][-1])
            self.assertEqual((result["dataset"]["status_new"], result["dataset"]["n_images"]), ("PARTIAL INDEX", 4))
            for task_id in result["task_ids"]:
                task = c.task(task_id)
                self.assertEqual((task["task_type"], task["status"], task["dataset_id"]), ("MEDIA_ADDITION", "COMPLETED", dataset["id"]))
            # One progress count across both requests.
            self.assertEqual([r["files_done"] for r in reports], [1, 2, 3])
            c.delete_dataset(dataset["id"])
        finally:
            shutil.rmtree(first, ignore_errors=True)
            shutil.rmtree(more, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
