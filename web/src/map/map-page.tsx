import { useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useDataset } from '../datasets/use-dataset';
import { ErrorMessage } from '../ui/error-message';
import { type MapAnswer, useMapPoints, useMapSelection } from './map-api';
import { type DrawnShape, MapCanvas, type Tool } from './map-canvas';
import { MapSelectionBar } from './map-selection-bar';
import { PointStore } from './point-store';

const TOOLS: Array<{ tool: Tool; label: string; hint: string }> = [
  { tool: 'pan', label: 'Pan', hint: 'Drag to move, wheel to zoom; point at a dot to see its media, click it to open it.' },
  { tool: 'rectangle', label: 'Rectangle', hint: 'Drag a rectangle round the media to select.' },
  { tool: 'lasso', label: 'Lasso', hint: 'Draw round the media to select, holding the button down.' },
];

/**
 * The pages read so far as one PointStore, appended to as pages arrive (a million points are not copied per page);
 * a new first page (a new map) starts a new store.
 */
function usePointStore(pages: MapAnswer[] | undefined): PointStore | null {
  const held = useRef<{ first: MapAnswer; used: number; store: PointStore } | null>(null);
  const count = pages?.length ?? 0;
  return useMemo(() => {
    const first = pages?.[0];
    if (!pages || !first) return null;
    if (held.current?.first !== first) held.current = { first, used: 0, store: new PointStore(first.total) };
    const h = held.current;
    for (; h.used < pages.length; h.used++) h.store.append(pages[h.used]!);
    return h.store;
    // Keyed by the first page and the count: pages only grows while its first page stays.
  }, [pages?.[0], count]);
}

/** The Map tab: every media of the current version placed by its embedding, coloured by cluster; select by shape. */
export function MapPage() {
  const { datasetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  const points = useMapPoints(datasetId, dataset.data?.status_new);
  const pages = points.data?.pages;
  const store = usePointStore(pages);
  const loaded = store?.count ?? 0;
  const first = pages?.[0];
  const [tool, setTool] = useState<Tool>('pan');
  const [shape, setShape] = useState<DrawnShape | null>(null);
  const selection = useMapSelection(datasetId);

  function choose(next: DrawnShape) {
    setShape(next);
    selection.mutate(next.kind === 'rectangle' ? { rect: next.rect } : { polygon: next.polygon });
  }
  function clear() {
    setShape(null);
    selection.reset();
  }

  const noMap = points.error instanceof ApiError && points.error.status === 409;
  return (
    <section aria-labelledby="map-title" className="stack">
      <h2 id="map-title">Map</h2>
      {noMap && (
        <div className="card" role="status">
          <p><strong>This dataset has no map yet.</strong> The map is made when the dataset is indexed: it appears once indexing ends, or after a reindex for a dataset indexed before maps existed.</p>
          <p className="muted">{(points.error as ApiError).detail}</p>
        </div>
      )}
      {points.error && !noMap && <ErrorMessage error={points.error} />}
      {!first && !points.error && <p role="status">Loading the map…</p>}
      {first && first.total === 0 && <p role="status">The map has no points: the current version holds no media.</p>}
      {first && store && first.total > 0 && (
        <>
          <div className="row">
            <progress max={Math.max(first.total, loaded)} value={loaded} aria-label="Points loaded" />
            <span className="muted" role="status">
              {loaded < first.total ? `Loading points: ${loaded.toLocaleString()} of ${first.total.toLocaleString()}` : `${loaded.toLocaleString()} points`}
              {' · coloured by cluster'}
            </span>
          </div>
          <div className="row explore-toolbar" role="group" aria-label="Map tool">
            {TOOLS.map((t) => (
              <button key={t.tool} type="button" aria-pressed={tool === t.tool} onClick={() => setTool(t.tool)}>
                {t.label}
              </button>
            ))}
            <span className="muted">{TOOLS.find((t) => t.tool === tool)!.hint}</span>
          </div>
          {shape && <MapSelectionBar key={JSON.stringify(shape.polygon)} datasetId={datasetId} shape={shape} answer={selection.data} pending={selection.isPending} error={selection.error} onClear={clear} />}
          <MapCanvas datasetId={datasetId} store={store} loaded={loaded} bounds={first.bounds} tool={tool} shape={shape} onShape={choose} />
        </>
      )}
    </section>
  );
}
