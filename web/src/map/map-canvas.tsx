import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { mediaPagePath } from '../media/media-thumb';
import { type Frame, QUICK_POINTS, drawPoints, pointAt } from './draw-points';
import { MapHover } from './map-hover';
import { type Bounds, type Point, rectBetween, rectCorners, roundFor, thinLasso, toMap, toScreen } from './map-view';
import type { PointStore } from './point-store';
import { useBoxSize, useMapView } from './use-map-view';

export type Tool = 'pan' | 'rectangle' | 'lasso';
export type DrawnShape = { kind: 'rectangle'; rect: Bounds; polygon: Point[] } | { kind: 'lasso'; polygon: Point[] };

interface Props {
  datasetId: string;
  store: PointStore;
  /** Points loaded so far: a new page redraws. */
  loaded: number;
  bounds: Bounds;
  tool: Tool;
  shape: DrawnShape | null;
  onShape: (shape: DrawnShape) => void;
}

type Drag = { tool: Tool; start: Point; last: Point; path: Point[]; moved: boolean };

const local = (event: PointerEvent<HTMLElement>): Point => {
  const box = event.currentTarget.getBoundingClientRect();
  return [event.clientX - box.left, event.clientY - box.top];
};

/** The map's points on a canvas: pan (drag), zoom (wheel, buttons), hover for the media, drag a rectangle or lasso. */
export function MapCanvas({ datasetId, store, loaded, bounds, tool, shape, onShape }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<Frame | undefined>(undefined);
  const { width, height } = useBoxSize(box);
  const { view, pan, zoom, reset } = useMapView(box, bounds, width, height);
  const [drawn, setDrawn] = useState(0);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [hover, setHover] = useState<{ index: number; at: Point } | null>(null);
  const navigate = useNavigate();

  useEffect(() => {
    const el = canvas.current;
    if (!el || !view || width === 0) return;
    const ratio = window.devicePixelRatio || 1;
    const draw = (limit: number) => {
      const next = drawPoints(store, view, width, height, ratio, frame.current, limit);
      frame.current = next;
      el.width = next.image.width;
      el.height = next.image.height;
      el.getContext('2d')!.putImageData(next.image, 0, 0);
      setDrawn(next.drawn);
    };
    // Past QUICK_POINTS a frame takes tens of ms: while the map moves, a sample; once it rests, every point.
    draw(QUICK_POINTS);
    if (loaded <= QUICK_POINTS) return;
    const full = setTimeout(() => draw(loaded), 150);
    return () => clearTimeout(full);
  }, [store, loaded, view, width, height]);

  function down(event: PointerEvent<HTMLDivElement>) {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    const at = local(event);
    setDrag({ tool, start: at, last: at, path: [at], moved: false });
    setHover(null);
  }

  function move(event: PointerEvent<HTMLDivElement>) {
    const at = local(event);
    if (!drag) {
      const index = frame.current && tool === 'pan' ? pointAt(frame.current, at[0], at[1]) : -1;
      setHover(index >= 0 ? { index, at } : null);
      return;
    }
    const moved = drag.moved || Math.hypot(at[0] - drag.start[0], at[1] - drag.start[1]) > 3;
    if (drag.tool === 'pan') pan(at[0] - drag.last[0], at[1] - drag.last[1]);
    const last = drag.path[drag.path.length - 1]!;
    const path = drag.tool === 'lasso' && Math.hypot(at[0] - last[0], at[1] - last[1]) >= 3 ? [...drag.path, at] : drag.path;
    setDrag({ ...drag, last: at, path, moved });
  }

  function up(event: PointerEvent<HTMLDivElement>) {
    const d = drag;
    setDrag(null);
    if (!d || !view) return;
    if (!d.moved) {
      const index = frame.current ? pointAt(frame.current, d.start[0], d.start[1]) : -1;
      if (d.tool === 'pan' && index >= 0) navigate(mediaPagePath(datasetId, store.mediaId[index]!));
      return;
    }
    const end = local(event);
    // Rounded before the count is asked: Explore then gets the very shape that was counted.
    const round = roundFor(view.scale);
    const mapPoint = (p: Point): Point => toMap(view, ...p).map(round) as Point;
    if (d.tool === 'rectangle') {
      const rect = rectBetween(mapPoint(d.start), mapPoint(end));
      onShape({ kind: 'rectangle', rect, polygon: rectCorners(rect) });
    } else if (d.tool === 'lasso' && d.path.length >= 3) {
      onShape({ kind: 'lasso', polygon: thinLasso([...d.path, end]).map(mapPoint) });
    }
  }

  const outline: Point[] | null =
    drag?.tool === 'rectangle' && drag.moved
      ? [drag.start, [drag.last[0], drag.start[1]], drag.last, [drag.start[0], drag.last[1]]]
      : drag?.tool === 'lasso' && drag.moved
        ? [...drag.path, drag.last]
        : shape && view
          ? shape.polygon.map((p) => toScreen(view, ...p))
          : null;

  return (
    <>
      <div className="row map-zoom">
        <button type="button" aria-label="Zoom in" onClick={() => zoom(1.5)}>+</button>
        <button type="button" aria-label="Zoom out" onClick={() => zoom(1 / 1.5)}>−</button>
        <button type="button" onClick={reset}>Fit</button>
      </div>
      <div ref={box} className={`map-box map-tool-${tool}`} onPointerDown={down} onPointerMove={move} onPointerUp={up} onPointerLeave={() => setHover(null)}>
        <canvas ref={canvas} role="img" aria-label={`Embedding map: ${drawn.toLocaleString()} points shown`} data-points={drawn} data-loaded={loaded} style={{ width, height }} />
        {outline && (
          <svg className="map-outline" width={width} height={height} aria-hidden="true">
            <polygon points={outline.map((p) => p.join(',')).join(' ')} />
          </svg>
        )}
        {hover && !drag && <MapHover datasetId={datasetId} mediaId={store.mediaId[hover.index]!} x={hover.at[0]} y={hover.at[1]} />}
      </div>
    </>
  );
}
