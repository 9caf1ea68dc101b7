import { Link } from 'react-router';
import { StatusBadge } from '../datasets/status-badge';
import { TaskActions } from './task-actions';
import { type Task, type TaskQuery, type TaskSortField, humanize } from './task-query';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** A column header that sorts the list by its field; aria-sort tells which one sorts it now, and how. */
function SortHeader(props: { field: TaskSortField; label: string; query: TaskQuery; onSort: (field: TaskSortField) => void }) {
  const active = props.query.sort_by === props.field;
  const sort = active ? (props.query.sort_order === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={sort}>
      <button type="button" className="sort-header" onClick={() => props.onSort(props.field)}>
        {props.label}
        <span aria-hidden="true">{active ? (props.query.sort_order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}

/** The tasks of one page, one row each, with what can be done to them. */
export function TaskTable(props: { tasks: Task[]; query: TaskQuery; onSort: (field: TaskSortField) => void; onOutcome: (error: unknown) => void }) {
  const header = (field: TaskSortField, label: string) => <SortHeader field={field} label={label} query={props.query} onSort={props.onSort} />;
  return (
    <div className="table-wrap">
      <table className="task-table">
        <caption className="muted">Tasks</caption>
        <thead>
          <tr>
            {header('dataset_name', 'Dataset')}
            {header('task_type', 'Type')}
            {header('status', 'Status')}
            <th scope="col">Message</th>
            <th scope="col">Progress</th>
            {header('created_by', 'Created by')}
            {header('start_time', 'Start')}
            <th scope="col">End</th>
            <th scope="col">Error</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {props.tasks.map((task) => (
            <tr key={task.task_id}>
              <td><Link to={`/datasets/${task.dataset_id}`}>{task.dataset_name}</Link></td>
              <td>{humanize(task.task_type)}</td>
              <td><StatusBadge status={task.status} /></td>
              <td>{task.status_message}</td>
              <td>
                {task.progress_percentage === null ? (
                  '—'
                ) : (
                  <span className="row task-progress">
                    <progress max={100} value={task.progress_percentage} aria-label={`Progress of the ${humanize(task.task_type).toLowerCase()} of ${task.dataset_name}`} />
                    <span>{task.progress_percentage}%</span>
                  </span>
                )}
              </td>
              <td>{task.created_by}</td>
              <td>{when(task.start_time)}</td>
              <td>{when(task.end_time)}</td>
              <td className="task-error">{task.error_message ?? ''}</td>
              <td><TaskActions task={task} onOutcome={props.onOutcome} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
