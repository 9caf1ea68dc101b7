import { type TaskQuery, TASK_STATUSES, humanize, withFilter } from './task-query';
import { useTaskFilters } from './use-tasks';

type Change = Parameters<typeof withFilter>[1];

function Choice(props: { label: string; value: string | undefined; options: readonly string[]; show?: (v: string) => string; onChange: (v: string | undefined) => void }) {
  return (
    <label>
      {props.label}
      <select value={props.value ?? ''} onChange={(event) => props.onChange(event.target.value || undefined)}>
        <option value="">All</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {props.show ? props.show(option) : option}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The list's filters: the values the API offers (GET /api/v1/tasks/filters) and a start-time range. */
export function TaskFilters({ query, onChange }: { query: TaskQuery; onChange: (next: TaskQuery) => void }) {
  const filters = useTaskFilters(query);
  const set = (change: Change) => onChange(withFilter(query, change));
  const options = filters.data;
  // A value chosen through a link (or an earlier range) stays selectable even when the API no longer offers it.
  const keep = (list: readonly string[] | undefined, value: string | undefined) => (value && !list?.includes(value) ? [...(list ?? []), value] : (list ?? []));
  const filtered = query.dataset_id || query.dataset_name || query.task_type || query.task_status || query.created_by || query.start_from || query.start_to;
  return (
    <form className="row task-filters" aria-label="Filter tasks" onSubmit={(event) => event.preventDefault()}>
      <Choice label="Dataset" value={query.dataset_name} options={keep(options?.dataset_names, query.dataset_name)} onChange={(v) => set({ dataset_name: v })} />
      <Choice label="Type" value={query.task_type} options={keep(options?.task_types, query.task_type)} show={humanize} onChange={(v) => set({ task_type: v as TaskQuery['task_type'] })} />
      <Choice label="Status" value={query.task_status} options={TASK_STATUSES} onChange={(v) => set({ task_status: v as TaskQuery['task_status'] })} />
      <Choice label="Created by" value={query.created_by} options={keep(options?.created_by, query.created_by)} onChange={(v) => set({ created_by: v })} />
      <label>
        Started from
        <input type="datetime-local" value={query.start_from ?? ''} onChange={(event) => set({ start_from: event.target.value || undefined })} />
      </label>
      <label>
        Started until
        <input type="datetime-local" value={query.start_to ?? ''} onChange={(event) => set({ start_to: event.target.value || undefined })} />
      </label>
      {query.dataset_id && <span className="muted">Only the tasks of dataset {query.dataset_id}</span>}
      {filtered && (
        <button
          type="button"
          onClick={() => set({ dataset_id: undefined, dataset_name: undefined, task_type: undefined, task_status: undefined, created_by: undefined, start_from: undefined, start_to: undefined })}
        >
          Clear filters
        </button>
      )}
    </form>
  );
}
