import { sql } from 'kysely';
import type { Db } from '../../adapters/db/database.js';
import type { MapPolygon } from '../../core/vql.js';
import type { MapParams } from '../indexing/embedding-map.js';
import { type MapRect, mapPoints } from './map-rows.js';

export interface MapPointRows {
  media_id: string[];
  x: number[];
  y: number[];
  cluster: Array<string | null>;
}

/** Reads a version's embedding map: its params, pages of points, and the points inside a polygon. */
export class MapRepo {
  constructor(private readonly db: Db) {}

  /** The map's params as the version's index stored them; undefined when the version has no map. */
  async mapOf(versionId: string): Promise<MapParams | undefined> {
    const row = await sql<{ map: MapParams | null }>`select params -> 'map' as map from version_indexes where version_id = ${versionId}::uuid`.execute(this.db);
    return row.rows[0]?.map ?? undefined;
  }

  /** The sealed version a delta version inherits rows from; null for a version holding all its rows. */
  private async baseOf(versionId: string): Promise<string | null> {
    const row = await this.db.selectFrom('version_bases').select('base_id').where('version_id', '=', versionId).executeTakeFirst();
    return row?.base_id ?? null;
  }

  /** Up to `limit` points in media-id order after `after`, inside `rect` when given, with their cluster at `level`. */
  async points(versionId: string, level: number, rect: MapRect | null, after: string | null, limit: number): Promise<MapPointRows> {
    const cluster = `cluster_l${level}`;
    const { rows } = await sql<{ media_id: string; map_x: number; map_y: number; cluster: string | null }>`
      select p.media_id, p.map_x, p.map_y, p.${sql.raw(cluster)} as cluster from ${mapPoints(versionId, rect, null, [cluster], { after, limit }, await this.baseOf(versionId))} p
      order by p.media_id limit ${limit}`.execute(this.db);
    return { media_id: rows.map((r) => r.media_id), x: rows.map((r) => r.map_x), y: rows.map((r) => r.map_y), cluster: rows.map((r) => r.cluster) };
  }

  /** How many points lie inside the polygon (within its bounding rectangle, read by the map's index). */
  async count(versionId: string, rect: MapRect, polygon: MapPolygon): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${mapPoints(versionId, rect, polygon, [], null, await this.baseOf(versionId))} p`.execute(this.db);
    return rows[0]!.n;
  }

  /** Up to `limit` media ids inside the polygon, in media-id order after `after`. */
  async inside(versionId: string, rect: MapRect, polygon: MapPolygon, after: string | null, limit: number): Promise<string[]> {
    const { rows } = await sql<{ media_id: string }>`select p.media_id from ${mapPoints(versionId, rect, polygon, [], { after, limit }, await this.baseOf(versionId))} p
      order by p.media_id limit ${limit}`.execute(this.db);
    return rows.map((r) => r.media_id);
  }
}
