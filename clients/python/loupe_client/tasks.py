"""Tasks: list with filters, read one, abort, retry, wait."""

from .paths import seg
from .waiting import poll


class TasksApi:
    def tasks(self, page_size=50, **filters):
        """Every task matching the filters (dataset_id, dataset_name, task_type, task_status, created_by,
        start_time_from, start_time_to, sort_by, sort_order), all pages."""
        page = 1
        while True:
            answer = self._get("/api/v1/tasks", page=page, page_size=page_size, **filters)
            yield from answer["tasks"]
            if page * page_size >= answer["total"] or not answer["tasks"]:
                return
            page += 1

    def task(self, task_id):
        return self._get(f"/api/v1/tasks/{seg(task_id)}")

    def task_filters(self, **time_range):
        return self._get("/api/v1/tasks/filters", **time_range)

    def abort_task(self, task_id):
        """Aborts a running DATASET_CREATION task; returns the task."""
        return self.transport.request("POST", f"/api/v1/tasks/{seg(task_id)}/abort").json()

    def retry_task(self, task_id):
        """Retries a FAILED or ABORTED DATASET_CREATION task; returns the task."""
        return self.transport.request("POST", f"/api/v1/tasks/{seg(task_id)}/retry").json()

    def wait_for_task(self, task_id, until=("COMPLETED",), fail_on=("FAILED", "ABORTED"), timeout=600.0, interval=1.0, on_progress=None):
        """Polls the task until its status is in `until`; LoupeError naming the status and error on `fail_on`."""
        return poll(
            lambda: self.task(task_id),
            lambda t: t["status"],
            tuple(until),
            tuple(fail_on),
            f"task {task_id}",
            timeout,
            interval,
            on_progress,
            why=lambda t: t.get("error_message"),
        )
