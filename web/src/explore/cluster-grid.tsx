import { useCallback, useMemo } from 'react';
import { ClusterCard } from './cluster-card';
import { type Selection, clickMedia, toggleCluster } from './selection';
import type { Cluster, ExploreAnswer, Preview } from './use-explore';

interface Props {
  datasetId: string;
  answer: ExploreAnswer;
  selection: Selection;
  onSelectionChange: (update: (sel: Selection) => Selection) => void;
  onFindSimilar: (preview: Preview) => void;
  onFirstPage: () => void;
}

/** The page's clusters as cards; callbacks are stable so that a selection redraws only the cards it touches. */
export function ClusterGrid({ datasetId, answer, selection, onSelectionChange, onFindSimilar, onFirstPage }: Props) {
  const order = useMemo(() => answer.clusters.flatMap((c) => c.previews.map((p) => p.media_id)), [answer]);
  const onSelect = useCallback((mediaId: string, shift: boolean) => onSelectionChange((sel) => clickMedia(sel, mediaId, shift, order)), [onSelectionChange, order]);
  const onSelectCluster = useCallback(
    (cluster: Cluster) => onSelectionChange((sel) => toggleCluster(sel, cluster.cluster_id, cluster.type === 'OBJECTS' ? cluster.n_objects : cluster.n_media, cluster.previews.map((p) => p.media_id))),
    [onSelectionChange],
  );

  if (answer.clusters.length === 0 && answer.page_number > 0) {
    return (
      <p className="row empty-grid">
        This page is past the last one.
        <button type="button" onClick={onFirstPage}>
          Go to the first page
        </button>
      </p>
    );
  }
  if (answer.clusters.length === 0) {
    return <p className="muted empty-grid">{answer.entity_type === 'OBJECTS' ? 'No objects match: this dataset has no detected objects, or none pass the filters.' : 'No media match these filters.'}</p>;
  }
  const first = answer.page_number * answer.clusters_per_page;
  return (
    <div className="cluster-grid">
      {answer.clusters.map((cluster, i) => (
        <ClusterCard
          key={cluster.cluster_id}
          datasetId={datasetId}
          cluster={cluster}
          position={first + i + 1}
          selectedKey={cluster.previews
            .filter((p) => selection.media.has(p.media_id))
            .map((p) => p.media_id)
            .join(',')}
          clusterSelected={selection.clusters.has(cluster.cluster_id)}
          onSelect={onSelect}
          onSelectCluster={onSelectCluster}
          onFindSimilar={onFindSimilar}
        />
      ))}
    </div>
  );
}
