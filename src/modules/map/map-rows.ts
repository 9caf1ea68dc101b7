import { type RawBuilder, sql } from 'kysely';
import type { MapPolygon } from '../../core/vql.js';

/** A rectangle on the map, edges included. */
export interface MapRect {
  min_x: number;
  min_y: number;
  max_x: number;
  max_y: number;
}

/** PostgreSQL's polygon text for a list of vertices (validated finite numbers). */
export function polygonText(polygon: MapPolygon): string {
  return `(${polygon.map(([x, y]) => `(${x},${y})`).join(',')})`;
}

export function rectOf(polygon: MapPolygon): MapRect {
  const xs = polygon.map((p) => p[0]);
  const ys = polygon.map((p) => p[1]);
  return { min_x: Math.min(...xs), min_y: Math.min(...ys), max_x: Math.max(...xs), max_y: Math.max(...ys) };
}

/** The four corners of a rectangle, as a polygon. */
export function rectPolygon(r: MapRect): MapPolygon {
  return [
    [r.min_x, r.min_y],
    [r.max_x, r.min_y],
    [r.max_x, r.max_y],
    [r.min_x, r.max_y],
  ];
}

/** A condition on a row `alias` with a map position: inside the rectangle, then (when given) inside the polygon. */
function within(alias: string, rect: MapRect | null, polygon: MapPolygon | null): RawBuilder<boolean> {
  const c = (column: string) => sql.ref(`${alias}.${column}`);
  const parts: RawBuilder<unknown>[] = [sql`${c('map_x')} is not null`];
  if (rect) {
    parts.push(sql`${c('map_x')} between ${rect.min_x}::float8 and ${rect.max_x}::float8 and ${c('map_y')} between ${rect.min_y}::float8 and ${rect.max_y}::float8`);
  }
  if (polygon) parts.push(sql`point(${c('map_x')}, ${c('map_y')}) <@ ${polygonText(polygon)}::polygon`);
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** A page: the first `limit` points after the media id `after`, in media-id order. */
export interface MapPageBound {
  after: string | null;
  limit: number;
}

/**
 * The points of a version on its map (media_id, map_x, map_y, and `extra` columns of the row) inside a rectangle
 * and a polygon: its own rows and those of its base it does not hold itself, each arm read by the map's index
 * (version_id, map_x, map_y) when a rectangle bounds it. Given a page, each arm is cut to it in media-id order
 * itself, so PostgreSQL walks the primary key (version_id, media_id) from the cursor and stops after `limit` rows:
 * with the order and limit only outside the union it sorted every row after the cursor (200k rows: 0.4 s a page).
 */
export function mapPoints(
  versionId: string,
  rect: MapRect | null,
  polygon: MapPolygon | null,
  extra: string[] = [],
  page: MapPageBound | null = null,
  /** The version's base: null for none, undefined to look it up in the query. */
  baseId?: string | null,
): RawBuilder<unknown> {
  const cols = (alias: string) => sql.raw(['media_id', 'map_x', 'map_y', ...extra].map((c) => `${alias}.${c}`).join(', '));
  const cursor = (alias: string) => (page?.after ? sql`and ${sql.ref(`${alias}.media_id`)} > ${page.after}::uuid` : sql``);
  const cut = (alias: string, arm: RawBuilder<unknown>) => (page ? sql`select * from (${arm} order by ${sql.ref(`${alias}.media_id`)} limit ${page.limit}) ${sql.raw(alias)}` : arm);
  const own = sql`select ${cols('r')} from version_rows r where r.version_id = ${versionId}::uuid and ${within('r', rect, polygon)} ${cursor('r')}`;
  if (baseId === null) return sql`(${cut('r', own)})`;
  // The base named (looked up by the caller), else a value computed once: either way its rows are an index condition
  // (joined to version_bases, they were scanned whole).
  const baseOf = baseId ? sql`${baseId}::uuid` : sql`(select vb.base_id from version_bases vb where vb.version_id = ${versionId}::uuid)`;
  const base = sql`select ${cols('b')} from version_rows b
    where b.version_id = ${baseOf} and ${within('b', rect, polygon)} ${cursor('b')}
      and not exists (select 1 from version_rows own where own.version_id = ${versionId}::uuid and own.media_id = b.media_id)`;
  return sql`(${cut('r', own)} union all ${cut('b', base)})`;
}

/** A polygon filter (VQL `map`): given the version, the ids inside it as an array its rows are probed by; else per row of version_media `vm`. */
export function mapFilterSql(polygon: MapPolygon, versionId?: string): RawBuilder<boolean> {
  if (versionId) return sql<boolean>`vm.media_id = any(array(select p.media_id from ${mapPoints(versionId, rectOf(polygon), polygon)} p))`;
  return sql<boolean>`(vm.map_x is not null and point(vm.map_x, vm.map_y) <@ ${polygonText(polygon)}::polygon)`;
}
