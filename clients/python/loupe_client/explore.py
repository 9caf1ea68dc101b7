"""Explore (clusters at a level), similarity, media and duplicates."""

import os

from .multipart import MultipartBody
from .paging import pages
from .paths import dataset_path, seg

LEVELS = range(0, 5)


def explore_query(level, page, issue_type=None, anchor_media_id=None, anchor_type=None, **filters):
    """Level 0 (near-duplicates) ... 4 (broad similarity) is the API's `threshold`, one to one."""
    if level not in LEVELS:
        raise ValueError(f"level must be 0 to 4, not {level!r}")
    return {"threshold": level, "page_number": page, "issue_type": issue_type, "anchor_media_id": anchor_media_id, "anchor_type": anchor_type, **filters}


class ExploreApi:
    def explore(self, dataset_id, level=0, page=0, issue_type=None, **filters):
        """One page (100 clusters) of Explore. Filters by the API's names: entity_type, sort_by, vql, labels, tags,
        file_name, media_type, caption, min_uniqueness, max_uniqueness, previews_limit, view_id, ..."""
        return self._get(f"/api/v1/explore/{seg(dataset_id)}", **explore_query(level, page, issue_type, **filters))

    def clusters(self, dataset_id, level=0, **filters):
        """Every cluster of every page."""
        page = 0
        while True:
            answer = self.explore(dataset_id, level=level, page=page, **filters)
            yield from answer["clusters"]
            if (page + 1) * answer["clusters_per_page"] >= answer["total_clusters"] or not answer["clusters"]:
                return
            page += 1

    def similar(self, dataset_id, media_id=None, image_path=None, level=0, page=0, **filters):
        """Explore ranked by similarity to a media of the dataset, or to an image file (uploaded as an anchor)."""
        if (media_id is None) == (image_path is None):
            raise ValueError("give media_id or image_path")
        if media_id is not None:
            anchor = {"anchor_media_id": media_id, "anchor_type": "MEDIA"}
        else:
            body = MultipartBody(files=[("file", image_path, os.path.basename(image_path))])
            anchor = self.transport.request("POST", f"{dataset_path(dataset_id)}/search-image-similarity", body=body, idempotent=True).json()
        return self.explore(dataset_id, level=level, page=page, **anchor, **filters)

    def media(self, dataset_id, media_type=None, page_size=100):
        """Every media item of the dataset, oldest first (all pages)."""
        fetch = lambda limit, offset: self._get(f"{dataset_path(dataset_id)}/media", limit=limit, offset=offset, media_type=media_type)
        return pages(fetch, lambda page: page["media"], page_size)

    def media_item(self, dataset_id, media_id):
        """One media item with signed links to its original, thumbnail and preview."""
        return self._get(f"{dataset_path(dataset_id)}/media/{seg(media_id)}")

    def duplicates(self, dataset_id, media_id):
        """{media_id, duplicates}: the other media of its duplicate group."""
        return self._get(f"{dataset_path(dataset_id)}/media/{seg(media_id)}/duplicates")
