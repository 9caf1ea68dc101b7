/** A dataset, task or export status as a coloured badge; the text is the API's own word. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`status status-${status.toLowerCase().replace(/[\s_]+/g, '-')}`}>{status}</span>;
}
