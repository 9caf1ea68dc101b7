import { describe, expect, it } from 'vitest';
import { MAX_ZOOM, fitView, panBy, rectBetween, roundFor, thinLasso, toMap, toScreen, wheelFactor, zoomAt } from '../../web/src/map/map-view.js';
import { type MapPage, PointStore, clusterColor } from '../../web/src/map/point-store.js';

const bounds = { min_x: 0, min_y: 0, max_x: 1, max_y: 0.5 };

describe('map view: map coordinates ↔ canvas pixels', () => {
  it('fits the whole map, centred, y up', () => {
    const v = fitView(bounds, 432, 432);
    expect(v.scale).toBe(400);
    expect(toScreen(v, 0, 0)).toEqual([16, 316]);
    expect(toScreen(v, 1, 0.5)).toEqual([416, 116]);
    expect(toMap(v, 216, 216)).toEqual([0.5, 0.25]);
  });

  it('zooms about the cursor: the map point under it stays put, within the zoom limits', () => {
    const fit = fitView(bounds, 432, 432);
    const zoomed = zoomAt(fit, fit, 2, 100, 200);
    expect(zoomed.scale).toBe(800);
    expect(toMap(zoomed, 100, 200)).toEqual(toMap(fit, 100, 200));
    expect(zoomAt(fit, fit, 1e9, 0, 0).scale).toBe(400 * MAX_ZOOM);
    expect(zoomAt(fit, fit, 1e-9, 0, 0).scale).toBe(200);
    expect(toMap(panBy(fit, 40, -40), 56, 276)).toEqual([0, 0]);
  });

  it('turns a wheel notch into a zoom step either way and a drag into a rectangle with min before max', () => {
    expect(wheelFactor(-100, 0)).toBeCloseTo(1.25);
    expect(wheelFactor(3, 1)).toBeCloseTo(wheelFactor(99, 0));
    expect(rectBetween([0.8, 0.1], [0.2, 0.4])).toEqual({ min_x: 0.2, min_y: 0.1, max_x: 0.8, max_y: 0.4 });
  });

  it('thins a long lasso to the API limit, keeping its start, and leaves a short one alone', () => {
    const path = Array.from({ length: 2500 }, (_, i): [number, number] => [i, 2 * i]);
    const thin = thinLasso(path);
    expect(thin).toHaveLength(200);
    expect(thin[0]).toEqual([0, 0]);
    expect(thinLasso(path.slice(0, 5))).toEqual(path.slice(0, 5));
  });

  it('rounds a shape to under a tenth of a pixel at the zoom it was drawn at', () => {
    expect(roundFor(400)(0.123456789)).toBe(0.1235);
    expect(roundFor(400 * MAX_ZOOM)(0.123456789)).toBe(0.1234568);
    expect(roundFor(0.5)(0.123456789)).toBe(0.12);
  });
});

describe('point store', () => {
  const page = (ids: string[], clusters: string[], cluster: number[]): MapPage => ({
    total: 3,
    clusters,
    points: { media_id: ids, x: ids.map((_, i) => i / 10), y: ids.map((_, i) => i / 20), cluster },
  });

  it('appends pages, colours points by cluster (the same id the same colour on any page), and grows past its first total', () => {
    const store = new PointStore(3);
    store.append(page(['a', 'b'], ['c1', 'c2'], [0, 1]));
    store.append(page(['c', 'd'], ['c1'], [0, -1]));
    expect(store.count).toBe(4);
    expect(store.mediaId).toEqual(['a', 'b', 'c', 'd']);
    expect([...store.x.slice(0, 4)].map((v) => Math.round(v * 10))).toEqual([0, 1, 0, 1]);
    expect(store.color[0]).toBe(clusterColor('c1'));
    expect(store.color[2]).toBe(clusterColor('c1'));
    expect(store.color[1]).toBe(clusterColor('c2'));
    expect(store.color[3]).not.toBe(clusterColor('c1'));
  });
});
