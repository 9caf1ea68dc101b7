"""Enrichment: models, context, and enriching into a new dataset."""

from .paths import dataset_path, seg


class EnrichmentApi:
    def enrichment_models(self, dataset_id):
        return self._get(f"/api/v1/enrichment/{seg(dataset_id)}/list_models")

    def enrichment_context(self, dataset_id):
        return self._get(f"/api/v1/enrichment/{seg(dataset_id)}/context")

    def enrich(self, dataset_id, models, wait=True, timeout=600.0):
        """Enriches a READY dataset into a new copy; models maps type to model id. Returns the copy (READY when `wait`)."""
        path = f"{dataset_path(dataset_id)}/enrich_dataset"
        copy_id = self.transport.request("POST", path, json={"enrichment_models": dict(models)}).json()["dataset_id"]
        return self.wait_for_dataset(copy_id, timeout=timeout) if wait else self.dataset(copy_id)
