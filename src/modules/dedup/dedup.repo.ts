import { type RawBuilder, sql } from 'kysely';
import { type Db, setWorkMem } from '../../adapters/db/database.js';
import type { FieldType } from '../../core/custom-fields.js';
import type { DedupRequest } from '../../core/dedup.js';
import { versionRowsOf } from '../versions/cluster-summaries.js';
import { CUSTOM_FIELDS, layerRows } from '../versions/version-annotations.js';

/** A dedup's request with the type of its custom field (custom_field only), as the SQL needs it. */
export interface DedupRule extends DedupRequest {
  fieldType: FieldType | null;
}

export interface DedupTotals {
  groups: number;
  /** Members of all groups; `groups` of them are kept, the rest removed (or tagged). */
  media_in_groups: number;
  media_kept: number;
  media_removed: number;
}

export interface DedupMember {
  media_id: string;
  file_name: string;
  file_size: number;
  value: string | number | boolean | null;
  keep: boolean;
}

export interface DedupGroup {
  group_id: string;
  n_members: number;
  keeper_media_id: string;
  members: DedupMember[];
}

/** The temporary table (this transaction's) of the media a dedup removes or tags. */
const REMOVED = 'dedup_removed';

/**
 * The keeper rule's sort keys over `m` (a row of `members`), best first, then the tie-break every rule shares (first
 * recorded, then file name in byte order, then media id); and the value it shows for each member.
 */
function ruleOf(rule: DedupRule): { keys: RawBuilder<unknown>; value: RawBuilder<unknown> } {
  const tieBreak = sql`m.created_at asc, m.file_name collate "C" asc, m.id asc`;
  const by = (expr: RawBuilder<unknown>, dir: 'asc' | 'desc', value: RawBuilder<unknown> = expr) => ({
    keys: sql`${expr} ${sql.raw(dir)} nulls last, ${tieBreak}`,
    value: sql`to_jsonb(${value})`,
  });
  switch (rule.keep) {
    case 'largest_resolution': {
      const area = sql`(m.width::int8 * m.height)`;
      return { keys: sql`${area} desc nulls last, m.size desc, ${tieBreak}`, value: sql`to_jsonb(${area})` };
    }
    case 'sharpest':
      return by(sql`m.blur`, 'desc');
    case 'earliest_capture':
      // Stored as ISO 8601 in UTC (src/adapters/media/exif.ts), so byte order is time order.
      return by(sql`m.captured_at collate "C"`, 'asc', sql`m.captured_at`);
    case 'first_uploaded':
      return { keys: tieBreak, value: sql`to_jsonb(m.created_at)` };
    case 'custom_field': {
      const x = sql`m.field_value`;
      const typed =
        rule.fieldType === 'number'
          ? sql`case when jsonb_typeof(${x}) = 'number' then (${x})::numeric end`
          : rule.fieldType === 'boolean'
            ? sql`case when jsonb_typeof(${x}) = 'boolean' then (${x})::boolean end`
            : sql`case when jsonb_typeof(${x}) = 'string' then (${x} #>> '{}') collate "C" end`;
      return { keys: sql`${typed} ${sql.raw(rule.order ?? 'asc')} nulls last, ${tieBreak}`, value: x };
    }
  }
}

/**
 * Dedup's groups in one pass over the version's images (video frames belong to their video and are left alone):
 * `ranked` (media_id, file_name, file_size, group_key, value, n, rank), every image with its group's size and its
 * rank in the group by the keeper rule (1 = kept). Exact: byte-identical media share a content hash, pixel-identical
 * ones a pixel hash; byte-identical media without a pixel hash (too large, or analysed before it) join their copies'
 * pixel group. Near: the index's cluster at the level. Cost: a scan of the version's rows and their media, a sort by
 * content hash (exact only) and one sort by group and rule; no per-group work.
 */
async function rankedCte(db: Db, versionId: string, rule: DedupRule): Promise<RawBuilder<unknown>> {
  const rows = await versionRowsOf(db, versionId);
  const custom = rule.keep === 'custom_field';
  const fields = custom ? sql`left join ${await layerRows(db, CUSTOM_FIELDS, versionId)} f on f.media_id = w.media_id` : sql``;
  const key =
    rule.scope === 'exact'
      ? sql`coalesce('pixels:' || max(m.pixel_hash) over (partition by m.blob_hash), 'bytes:' || m.blob_hash)`
      : sql`${sql.ref(`w.cluster_l${rule.level ?? 0}`)}::text`;
  const { keys, value } = ruleOf(rule);
  return sql`members as materialized (
      select m.id, m.file_name, m.size, m.width, m.height, m.blur, m.exif ->> 'captured_at' as captured_at, m.created_at,
        ${custom ? sql`f.custom_fields -> ${rule.field}` : sql`null::jsonb`} as field_value, ${key} as group_key
      from ${rows} w join media m on m.id = w.media_id ${fields}
      where m.media_type = 'IMAGE'
    ),
    ranked as materialized (
      select m.id as media_id, m.file_name, m.size as file_size, m.group_key, ${value} as value,
        count(*) over (partition by m.group_key) as n, row_number() over (partition by m.group_key order by ${keys}) as rank
      from members m where m.group_key is not null
    )`;
}

/** Dedup's reads and its temporary table: the groups of a version, a page of them, the media to remove. */
export class DedupRepo {
  constructor(private readonly db: Db) {}

  /** The totals and one page of groups (largest first, then by the keeper's id), each with its first `membersPerGroup` members, keeper first. */
  async page(versionId: string, rule: DedupRule, offset: number, limit: number, membersPerGroup: number): Promise<{ totals: DedupTotals; groups: DedupGroup[] }> {
    return this.db.transaction().execute(async (trx) => {
      await setWorkMem(trx, '256MB');
      const { rows } = await sql<{
        groups: number;
        media: number;
        group_key: string | null;
        n: number;
        keeper: string;
        media_id: string;
        file_name: string;
        file_size: number;
        value: string | number | boolean | null;
        rank: number;
      }>`with ${await rankedCte(trx, versionId, rule)},
        heads as (select group_key, n, media_id as keeper from ranked where rank = 1 and n > 1),
        totals as (select count(*)::int as groups, coalesce(sum(n), 0)::int8 as media from heads),
        page as (select * from heads order by n desc, keeper limit ${limit} offset ${offset})
        select t.groups, t.media, p.group_key, p.n::int as n, p.keeper, r.media_id, r.file_name, r.file_size, r.value, r.rank::int as rank
        from totals t left join (page p join ranked r on r.group_key = p.group_key and r.rank <= ${membersPerGroup}) on true
        order by p.n desc, p.keeper, r.rank`.execute(trx);
      const first = rows[0]!;
      const media = Number(first.media);
      const totals = { groups: first.groups, media_in_groups: media, media_kept: first.groups, media_removed: media - first.groups };
      const groups: DedupGroup[] = [];
      for (const r of rows) {
        if (r.group_key === null) continue;
        if (groups.at(-1)?.group_id !== r.group_key) groups.push({ group_id: r.group_key, n_members: r.n, keeper_media_id: r.keeper, members: [] });
        groups.at(-1)!.members.push({ media_id: r.media_id, file_name: r.file_name, file_size: Number(r.file_size), value: r.value, keep: r.rank === 1 });
      }
      return { totals, groups };
    });
  }

  /** Fills this transaction's table of the media the dedup removes (every member of a group but its keeper); returns the totals. */
  async markRemoved(trx: Db, versionId: string, rule: DedupRule): Promise<DedupTotals> {
    await setWorkMem(trx, '256MB');
    await sql`drop table if exists ${sql.table(REMOVED)}`.execute(trx);
    await sql`create temp table ${sql.table(REMOVED)} on commit drop as
      with ${await rankedCte(trx, versionId, rule)}
      select media_id, rank = 1 as kept from ranked where n > 1`.execute(trx);
    const { rows } = await sql<{ groups: number; media: number }>`select count(*) filter (where kept)::int as groups, count(*)::int as media
      from ${sql.table(REMOVED)}`.execute(trx);
    await sql`delete from ${sql.table(REMOVED)} where kept`.execute(trx);
    await sql`create index on ${sql.table(REMOVED)} (media_id)`.execute(trx);
    await sql`analyze ${sql.table(REMOVED)}`.execute(trx);
    const { groups, media } = rows[0]!;
    return { groups, media_in_groups: media, media_kept: groups, media_removed: media - groups };
  }

  /** The removed media of markRemoved, as a query of media_id. */
  removed(): RawBuilder<unknown> {
    return sql`select media_id from ${sql.table(REMOVED)}`;
  }

  /** How many rows (media) the version has: one scan of them. */
  async countRows(db: Db, versionId: string): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${await versionRowsOf(db, versionId)} w`.execute(db);
    return rows[0]!.n;
  }

  /** Whether the version has the embedding index that near-duplicate clusters come from. */
  async indexed(versionId: string): Promise<boolean> {
    const row = await this.db.selectFrom('version_indexes').select('version_id').where('version_id', '=', versionId).executeTakeFirst();
    return row !== undefined;
  }
}
