import { describe, expect, it } from 'vitest';
import {
  defaultState,
  effectiveSort,
  emptyFilters,
  exploreQuery,
  fieldValue,
  hasFilters,
  opsFor,
  pageCount,
  paramsFromState,
  stateFromParams,
  viewQuery,
  withChange,
  type ExploreState,
} from '../../web/src/explore/explore-query.js';
import { boxPercent, containFrame } from '../../web/src/explore/geometry.js';
import { EMPTY_SELECTION, clickMedia, describeSelection, editTargets, exportItems, selectedCount, toggleCluster } from '../../web/src/explore/selection.js';

const full: ExploreState = {
  threshold: 3,
  page: 4,
  sort: 'uniqueness',
  entity: 'OBJECTS',
  filters: {
    issues: ['duplicates', 'dark'],
    minUniqueness: '0.2',
    maxUniqueness: '0.9',
    labels: ['dog', 'cat, black'],
    tags: ['keep'],
    caption: 'a red kite',
    fileName: 'IMG_',
    fields: [
      { field: 'camera', op: 'eq', value: 'X100' },
      { field: 'iso', op: 'gte', value: 400 },
      { field: 'flash', op: 'eq', value: false },
    ],
    mapPolygon: [[0.1, 0.2], [0.5, 0.2], [0.3, 0.75]],
  },
  anchor: { id: '9b2f4a7e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', type: 'UPLOAD', name: 'query.png' },
};

describe('explore query: UI state ↔ URL ↔ API query', () => {
  it('a plain page has a plain URL and asks the API for the first page at level 0', () => {
    expect(paramsFromState(defaultState()).toString()).toBe('');
    expect(stateFromParams(new URLSearchParams())).toEqual(defaultState());
    expect(exploreQuery(defaultState())).toEqual({ threshold: 0, entity_type: 'IMAGES', page_number: 0, previews_limit: 6 });
  });

  it('every part of the state survives the URL, the page shown 1-based', () => {
    const params = paramsFromState(full);
    expect(params.get('page')).toBe('5');
    expect(params.getAll('issue')).toEqual(['duplicates', 'dark']);
    expect(params.getAll('label')).toEqual(['dog', 'cat, black']);
    expect(stateFromParams(new URLSearchParams(params.toString()))).toEqual(full);
  });

  it('puts issues, labels, tags and fields in vql, the rest in plain parameters', () => {
    const q = exploreQuery(full);
    expect(q).toMatchObject({
      threshold: 3,
      entity_type: 'OBJECTS',
      page_number: 4,
      previews_limit: 6,
      anchor_media_id: full.anchor!.id,
      anchor_type: 'UPLOAD',
      sort_by: 'uniqueness',
      file_name: 'IMG_',
      min_uniqueness: '0.2',
      max_uniqueness: '0.9',
      caption: 'a red kite',
    });
    expect(JSON.parse(q.vql!)).toEqual([
      { issues: { op: 'issue', value: 'duplicates' } },
      { issues: { op: 'issue', value: 'dark' } },
      { labels: { op: 'one_of', value: ['dog', 'cat, black'] } },
      { tags: { op: 'is', value: ['keep'] } },
      { custom: { field: 'camera', op: 'eq', value: 'X100' } },
      { custom: { field: 'iso', op: 'gte', value: 400 } },
      { custom: { field: 'flash', op: 'eq', value: false } },
      { map: { op: 'within', value: [[0.1, 0.2], [0.5, 0.2], [0.3, 0.75]] } },
    ]);
    const view = viewQuery(full);
    expect(view).not.toHaveProperty('page_number');
    expect(view).not.toHaveProperty('previews_limit');
    expect(view.vql).toBe(q.vql);
  });

  it('falls back to defaults for an edited link', () => {
    const s = stateFromParams(new URLSearchParams('threshold=9&page=0&sort=best&entity=FACES&issue=mud&field=%7Bbad&field={"field":"a","op":"like","value":1}'));
    expect(s).toEqual(defaultState());
    expect(stateFromParams(new URLSearchParams('threshold=2&page=3')).page).toBe(2);
  });

  it('a change of what is listed goes back to the first page; relevance needs an anchor', () => {
    const s = withChange({ ...full, page: 7 }, { threshold: 1 });
    expect(s.page).toBe(0);
    expect(s.threshold).toBe(1);
    expect(effectiveSort(defaultState())).toBe('size');
    expect(effectiveSort({ ...defaultState(), anchor: full.anchor })).toBe('relevance');
    expect(effectiveSort({ ...defaultState(), sort: 'relevance' })).toBe('size');
    expect(exploreQuery({ ...defaultState(), sort: 'relevance' })).not.toHaveProperty('sort_by');
  });

  it('knows when filters are set, and counts pages', () => {
    expect(hasFilters(emptyFilters())).toBe(false);
    expect(hasFilters({ ...emptyFilters(), maxUniqueness: '0.5' })).toBe(true);
    expect(hasFilters({ ...emptyFilters(), caption: '   ' })).toBe(false);
    expect(pageCount(0, 100)).toBe(1);
    expect(pageCount(100, 100)).toBe(1);
    expect(pageCount(101, 100)).toBe(2);
    expect(pageCount(1_000_000, 100)).toBe(10_000);
  });

  it('types custom field values as their field', () => {
    expect(fieldValue('number', 'gt', ' 3.5 ')).toBe(3.5);
    expect(() => fieldValue('number', 'eq', 'ten')).toThrow('ten is not a number');
    expect(fieldValue('boolean', 'eq', 'false')).toBe(false);
    expect(fieldValue('string', 'exists', 'true')).toBe(true);
    expect(fieldValue('string_list', 'contains', 'red')).toBe('red');
    expect(fieldValue('datetime', 'gte', '2024-05-01T10:00:00Z')).toBe('2024-05-01T10:00:00.000Z');
    expect(() => fieldValue('datetime', 'lt', 'soon')).toThrow('soon is not a date and time');
    expect(() => fieldValue('string', 'eq', ' ')).toThrow('Enter a value');
    expect(opsFor('boolean')).toEqual(['eq', 'ne', 'exists']);
    expect(opsFor('string')).toEqual(['eq', 'ne', 'contains', 'exists']);
  });
});

describe('explore selection', () => {
  const order = ['a', 'b', 'c', 'd', 'e'];

  it('click toggles one media, shift-click selects the range from the last click', () => {
    let sel = clickMedia(EMPTY_SELECTION, 'b', false, order);
    sel = clickMedia(sel, 'e', true, order);
    expect([...sel.media].sort()).toEqual(['b', 'c', 'd', 'e']);
    sel = clickMedia(sel, 'c', false, order);
    expect([...sel.media].sort()).toEqual(['b', 'd', 'e']);
    // The last click unselected c: a shift-click from it unselects the range.
    sel = clickMedia(sel, 'e', true, order);
    expect([...sel.media]).toEqual(['b']);
    // Shift without a previous click is a plain click.
    expect([...clickMedia(EMPTY_SELECTION, 'd', true, order).media]).toEqual(['d']);
  });

  it('a whole cluster counts its media and is exported as a cluster', () => {
    let sel = clickMedia(EMPTY_SELECTION, 'a', false, order);
    sel = clickMedia(sel, 'b', false, order);
    sel = toggleCluster(sel, 'cluster-1', 40, ['b', 'c']);
    expect(selectedCount(sel)).toBe(41);
    expect(describeSelection(sel)).toBe('41 media selected (1 whole cluster)');
    expect(editTargets(sel)).toEqual([{ media_ids: ['a'] }, { cluster_ids: ['cluster-1'] }]);
    expect(exportItems(sel, 'IMAGES')).toEqual([
      { type: 'media', payload: { media_ids: ['a'] } },
      { type: 'cluster', payload: { cluster_id: 'cluster-1', cluster_filters: { entity_type: 'IMAGES' } } },
    ]);
    expect(describeSelection(toggleCluster(toggleCluster(EMPTY_SELECTION, 'x', 3, []), 'x', 3, []))).toBe('Nothing selected');
  });
});

describe('explore thumbnails: frames and boxes', () => {
  it('fits the media whole in a square box', () => {
    expect(containFrame(400, 200)).toEqual({ left: 0, top: 25, width: 100, height: 50 });
    expect(containFrame(300, 600)).toEqual({ left: 25, top: 0, width: 50, height: 100 });
    expect(containFrame(null, 10)).toEqual({ left: 0, top: 0, width: 100, height: 100 });
  });

  it('places an object box in percent of the media, clipped to it', () => {
    expect(boxPercent({ x: 100, y: 50, width: 200, height: 100 }, 400, 200)).toEqual({ left: 25, top: 25, width: 50, height: 50 });
    expect(boxPercent({ x: 300, y: -20, width: 200, height: 100 }, 400, 200)).toEqual({ left: 75, top: 0, width: 25, height: 40 });
    expect(boxPercent({ x: 0, y: 0, width: 1, height: 1 }, null, null)).toBeNull();
  });
});
