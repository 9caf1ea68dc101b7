import { useCallback, useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useDataset } from '../datasets/use-dataset';
import { ErrorMessage } from '../ui/error-message';
import { ClusterGrid } from './cluster-grid';
import { type ExploreState, exploreQuery, paramsFromState, stateFromParams, viewQuery, withChange } from './explore-query';
import { ExploreToolbar } from './explore-toolbar';
import { FiltersPanel } from './filters-panel';
import { Pager } from './pager';
import { EMPTY_SELECTION, type Selection } from './selection';
import { SelectionBar } from './selection-bar';
import { SimilaritySearch } from './similarity-search';
import { type Preview, useExplore } from './use-explore';

const wide = () => typeof window !== 'undefined' && window.matchMedia('(min-width: 900px)').matches;

/** The Explore tab of a dataset; another dataset starts with nothing selected. */
export function ExplorePage() {
  const { datasetId = '' } = useParams();
  return <ExploreView key={datasetId} datasetId={datasetId} />;
}

/** A dataset's clusters: granularity, order, filters, similarity, selection and what to do with it. */
function ExploreView({ datasetId }: { datasetId: string }) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => stateFromParams(params), [params]);
  const query = useMemo(() => exploreQuery(state), [state]);
  const dataset = useDataset(datasetId);
  const explore = useExplore(datasetId, query, dataset.data?.status_new);
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [filtersOpen, setFiltersOpen] = useState(wide);

  const go = useCallback((next: ExploreState) => setParams(paramsFromState(next)), [setParams]);
  const onSelectionChange = useCallback((update: (sel: Selection) => Selection) => setSelection(update), []);
  const onFindSimilar = useCallback(
    (p: Preview) => {
      go(withChange(state, { anchor: { id: p.media_id, type: 'MEDIA', name: p.file_name }, sort: null }));
      window.scrollTo({ top: 0 });
    },
    [go, state],
  );
  const answer = explore.data;

  return (
    <div className="explore">
      <details className="filters-box" open={filtersOpen} onToggle={(event) => setFiltersOpen(event.currentTarget.open)}>
        <summary>Filters</summary>
        <FiltersPanel key={params.toString()} datasetId={datasetId} filters={state.filters} onApply={(filters) => go(withChange(state, { filters }))} />
      </details>
      <div className="stack explore-main">
        <ExploreToolbar state={state} onChange={go} />
        <SimilaritySearch datasetId={datasetId} anchor={state.anchor} onAnchor={(anchor) => go(withChange(state, { anchor, sort: null }))} />
        <SelectionBar datasetId={datasetId} selection={selection} entity={state.entity} viewQuery={viewQuery(state)} onClear={() => setSelection(EMPTY_SELECTION)} />
        {explore.error && <ErrorMessage error={explore.error} />}
        {!answer && !explore.error && <p role="status">Loading clusters…</p>}
        {answer && (
          <>
            <Pager label="Pages" page={state.page} totalClusters={answer.total_clusters} perPage={answer.clusters_per_page} onPage={(page) => go({ ...state, page })} />
            <div aria-busy={explore.isFetching}>
              <ClusterGrid datasetId={datasetId} answer={answer} selection={selection} onSelectionChange={onSelectionChange} onFindSimilar={onFindSimilar} onFirstPage={() => go({ ...state, page: 0 })} />
            </div>
            {answer.clusters.length > 0 && <Pager label="Pages, below the clusters" page={state.page} totalClusters={answer.total_clusters} perPage={answer.clusters_per_page} onPage={(page) => go({ ...state, page })} />}
          </>
        )}
      </div>
    </div>
  );
}
