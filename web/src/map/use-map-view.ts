import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { type Bounds, type View, fitView, panBy, wheelFactor, zoomAt } from './map-view';

/** The canvas box's CSS size, followed as the window changes. */
export function useBoxSize(ref: RefObject<HTMLElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setSize({ width: el.clientWidth, height: el.clientHeight }));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/**
 * Pan and zoom of the map: the whole map fitted at first (and on "Reset"), the wheel zooming about the cursor.
 * The wheel listener is added by hand: React's is passive and cannot stop the page from scrolling.
 */
export function useMapView(target: RefObject<HTMLElement | null>, bounds: Bounds | undefined, width: number, height: number) {
  const fit = bounds && width > 0 ? fitView(bounds, width, height) : null;
  const [view, setView] = useState<View | null>(null);
  const fitRef = useRef(fit);
  fitRef.current = fit;
  const key = bounds ? `${bounds.min_x},${bounds.min_y},${bounds.max_x},${bounds.max_y},${width},${height}` : '';
  useEffect(() => setView(fitRef.current), [key]);

  useEffect(() => {
    const el = target.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const box = el.getBoundingClientRect();
      const factor = wheelFactor(event.deltaY, event.deltaMode);
      setView((v) => (v && fitRef.current ? zoomAt(v, fitRef.current, factor, event.clientX - box.left, event.clientY - box.top) : v));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [target]);

  const pan = useCallback((dx: number, dy: number) => setView((v) => (v ? panBy(v, dx, dy) : v)), []);
  const zoom = useCallback((factor: number) => setView((v) => (v && fitRef.current ? zoomAt(v, fitRef.current, factor, width / 2, height / 2) : v)), [width, height]);
  const reset = useCallback(() => setView(fitRef.current), []);
  return { view, pan, zoom, reset };
}
