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

/**
 * The points of a version on its map (media_id, map_x, map_y, and `extra` columns of the row) inside a rectangle
 * and a polygon: its own rows and those of its base it does not hold itself, each arm read by the map's index
 * (version_id, map_x, map_y) when a rectangle bounds it, else by the primary key in media-id order.
 */
export function mapPoints(versionId: string, rect: MapRect | null, polygon: MapPolygon | null, extra: string[] = [], after: string | null = null): RawBuilder<unknown> {
  const cols = (alias: string) => sql.raw(['media_id', 'map_x', 'map_y', ...extra].map((c) => `${alias}.${c}`).join(', '));
  const cursor = (alias: string) => (after ? sql`and ${sql.ref(`${alias}.media_id`)} > ${after}::uuid` : sql``);
  return sql`(
    select ${cols('r')} from version_rows r where r.version_id = ${versionId}::uuid and ${within('r', rect, polygon)} ${cursor('r')}
    union all
    select ${cols('b')} from version_bases v join version_rows b on b.version_id = v.base_id
    where v.version_id = ${versionId}::uuid and ${within('b', rect, polygon)} ${cursor('b')}
      and not exists (select 1 from version_rows own where own.version_id = v.version_id and own.media_id = b.media_id)
  )`;
}

/** A polygon filter (VQL `map`): given the version, the ids inside it as an array its rows are probed by; else per row of version_media `vm`. */
export function mapFilterSql(polygon: MapPolygon, versionId?: string): RawBuilder<boolean> {
  if (versionId) return sql<boolean>`vm.media_id = any(array(select p.media_id from ${mapPoints(versionId, rectOf(polygon), polygon)} p))`;
  return sql<boolean>`(vm.map_x is not null and point(vm.map_x, vm.map_y) <@ ${polygonText(polygon)}::polygon)`;
}
