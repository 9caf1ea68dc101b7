import { pageCount } from './explore-query';

interface Props {
  page: number;
  totalClusters: number;
  perPage: number;
  onPage: (page: number) => void;
  /** The two pagers (above and below the grid) need names of their own. */
  label: string;
}

/** Previous / Next over the pages of clusters. */
export function Pager({ page, totalClusters, perPage, onPage, label }: Props) {
  const pages = pageCount(totalClusters, perPage);
  return (
    <nav className="row pager" aria-label={label}>
      <button type="button" disabled={page <= 0} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page + 1} of {pages}
      </span>
      <button type="button" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
      <span className="muted">{totalClusters} clusters</span>
    </nav>
  );
}
