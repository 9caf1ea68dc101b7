import { memo } from 'react';
import { PreviewTile } from './preview-tile';
import type { Cluster, Preview } from './use-explore';

interface Props {
  datasetId: string;
  cluster: Cluster;
  /** 1-based over all pages, for the card's name. */
  position: number;
  /** The listed media that are selected, joined: a string, so an unchanged card is not drawn again. */
  selectedKey: string;
  clusterSelected: boolean;
  onSelect: (mediaId: string, shift: boolean) => void;
  onSelectCluster: (cluster: Cluster) => void;
  onFindSimilar: (preview: Preview) => void;
}

/** A cluster: its size, labels and tags, and its first members as thumbnails. */
export const ClusterCard = memo(function ClusterCard({ datasetId, cluster, position, selectedKey, clusterSelected, onSelect, onSelectCluster, onFindSimilar }: Props) {
  const selected = selectedKey ? new Set(selectedKey.split(',')) : null;
  const headingId = `cluster-${cluster.cluster_id}`;
  const size = cluster.type === 'OBJECTS' ? `${cluster.n_objects} object${cluster.n_objects === 1 ? '' : 's'}` : `${cluster.n_media} media`;
  return (
    <article className={`cluster-card${clusterSelected ? ' cluster-selected' : ''}`} aria-labelledby={headingId}>
      <div className="cluster-head">
        <h3 id={headingId}>Cluster {position}</h3>
        <span className="muted">{size}</span>
        <button type="button" aria-pressed={clusterSelected} onClick={() => onSelectCluster(cluster)}>
          {clusterSelected ? 'Cluster selected' : 'Select cluster'}
        </button>
      </div>
      <ul className="previews">
        {cluster.previews.map((p) => (
          <PreviewTile
            key={p.object_id ?? p.media_id}
            datasetId={datasetId}
            preview={p}
            selected={clusterSelected || (selected?.has(p.media_id) ?? false)}
            locked={clusterSelected}
            onSelect={onSelect}
            onFindSimilar={onFindSimilar}
          />
        ))}
      </ul>
      {(cluster.labels.length > 0 || cluster.user_tags.length > 0) && (
        <ul className="chips" aria-label="Labels and tags">
          {cluster.labels.map((l) => (
            <li key={`label-${l}`} className="chip chip-label">
              {l}
            </li>
          ))}
          {cluster.user_tags.map((t) => (
            <li key={`tag-${t}`} className="chip">
              #{t}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
});
