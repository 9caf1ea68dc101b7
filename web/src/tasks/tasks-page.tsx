import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorMessage } from '../ui/error-message';
import { TaskFilters } from './task-filters';
import { TaskTable } from './task-table';
import { type TaskQuery, PAGE_SIZES, pageCount, sortedBy, taskQueryFromParams, taskQueryToParams } from './task-query';
import { useTasks } from './use-tasks';

/** The Task Manager: every task on the datasets the user can access, filtered, sorted and paged through the URL. */
export function TasksPage() {
  const [params, setParams] = useSearchParams();
  const query = taskQueryFromParams(params);
  const tasks = useTasks(query);
  // The last refused abort or retry, with the API's detail, until an action succeeds.
  const [refusal, setRefusal] = useState<unknown>(null);
  const go = (next: TaskQuery) => setParams(taskQueryToParams(next));
  useEffect(() => {
    document.title = 'Tasks · Loupe';
  }, []);

  const data = tasks.data;
  const pages = data ? pageCount(data.total, data.page_size) : 1;
  return (
    <main className="page stack">
      <h1 style={{ margin: 0 }}>Tasks</h1>
      <TaskFilters query={query} onChange={go} />
      {refusal ? <ErrorMessage error={refusal} /> : null}
      {tasks.error && <ErrorMessage error={tasks.error} />}
      {data && data.tasks.length === 0 && <p className="muted">No tasks match.</p>}
      {data && data.tasks.length > 0 && <TaskTable tasks={data.tasks} query={query} onSort={(field) => go(sortedBy(query, field))} onOutcome={setRefusal} />}
      {data && (
        <nav className="row" aria-label="Task pages">
          <button type="button" disabled={query.page <= 1} onClick={() => go({ ...query, page: query.page - 1 })}>
            Previous page
          </button>
          <span>
            Page {query.page} of {pages} · {data.total} {data.total === 1 ? 'task' : 'tasks'}
          </span>
          <button type="button" disabled={query.page >= pages} onClick={() => go({ ...query, page: query.page + 1 })}>
            Next page
          </button>
          <label className="inline">
            Per page
            <select value={query.page_size} onChange={(event) => go({ ...query, page: 1, page_size: Number(event.target.value) })}>
              {[...new Set([...PAGE_SIZES, query.page_size])].sort((a, b) => a - b).map((size) => (
                <option key={size} value={size}>{size}</option>
              ))}
            </select>
          </label>
        </nav>
      )}
    </main>
  );
}
