/**
 * What the user has picked on the Explore page: single media (click, shift-click for a range) and whole clusters.
 * Plain values and pure functions; the page keeps one in React state.
 */
export interface Selection {
  media: ReadonlySet<string>;
  /** Whole clusters, with how many media each holds (for the count shown). */
  clusters: ReadonlyMap<string, number>;
  /** The media last clicked without shift: the start of a shift-click range. */
  anchor: string | null;
}

export const EMPTY_SELECTION: Selection = { media: new Set(), clusters: new Map(), anchor: null };

/**
 * A click on a media's checkbox. Without shift it toggles that media; with shift it gives the whole range between the
 * last clicked media and this one (in the page's order) the state of the last clicked one.
 */
export function clickMedia(sel: Selection, mediaId: string, shift: boolean, order: readonly string[]): Selection {
  const media = new Set(sel.media);
  const from = sel.anchor === null ? -1 : order.indexOf(sel.anchor);
  const to = order.indexOf(mediaId);
  if (shift && from >= 0 && to >= 0) {
    const select = sel.media.has(sel.anchor!);
    for (const id of order.slice(Math.min(from, to), Math.max(from, to) + 1)) {
      if (select) media.add(id);
      else media.delete(id);
    }
    return { ...sel, media };
  }
  if (media.has(mediaId)) media.delete(mediaId);
  else media.add(mediaId);
  return { ...sel, media, anchor: mediaId };
}

/** Selects a whole cluster (its listed media then count through it), or unselects it. */
export function toggleCluster(sel: Selection, clusterId: string, nMedia: number, listed: readonly string[]): Selection {
  const clusters = new Map(sel.clusters);
  const media = new Set(sel.media);
  if (clusters.has(clusterId)) clusters.delete(clusterId);
  else {
    clusters.set(clusterId, nMedia);
    for (const id of listed) media.delete(id);
  }
  return { ...sel, clusters, media };
}

export function selectedCount(sel: Selection): number {
  let n = sel.media.size;
  for (const size of sel.clusters.values()) n += size;
  return n;
}

export function isEmpty(sel: Selection): boolean {
  return sel.media.size === 0 && sel.clusters.size === 0;
}

/** The selection as the annotation routes take it: each request names media or clusters, never both. */
export function editTargets(sel: Selection): Array<{ media_ids: string[] } | { cluster_ids: string[] }> {
  const targets: Array<{ media_ids: string[] } | { cluster_ids: string[] }> = [];
  if (sel.media.size > 0) targets.push({ media_ids: [...sel.media] });
  if (sel.clusters.size > 0) targets.push({ cluster_ids: [...sel.clusters.keys()] });
  return targets;
}

export type ExportItem =
  | { type: 'media'; payload: { media_ids: string[] } }
  | { type: 'cluster'; payload: { cluster_id: string; cluster_filters?: { entity_type?: string } } };

/** The selection as export_entities_async takes it: one media item, and one cluster item each. */
export function exportItems(sel: Selection, entityType: string): ExportItem[] {
  const items: ExportItem[] = [];
  if (sel.media.size > 0) items.push({ type: 'media', payload: { media_ids: [...sel.media] } });
  for (const clusterId of sel.clusters.keys()) items.push({ type: 'cluster', payload: { cluster_id: clusterId, cluster_filters: { entity_type: entityType } } });
  return items;
}

export function describeSelection(sel: Selection): string {
  if (isEmpty(sel)) return 'Nothing selected';
  const n = selectedCount(sel);
  const clusters = sel.clusters.size;
  return `${n} media selected${clusters > 0 ? ` (${clusters} whole cluster${clusters === 1 ? '' : 's'})` : ''}`;
}
