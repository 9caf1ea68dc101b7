import { CLUSTER_LEVELS } from './clustering.js';
import type { FieldType } from './custom-fields.js';
import { errors } from './errors.js';

/** Issue 29 part 2: which media count as one group of duplicates, and which member of each is kept (docs/curation.md, Dedup). */

/** `exact`: identical bytes or identical decoded pixels (the exact_duplicates issue); `near`: one index cluster at a level. */
export const DEDUP_SCOPES = ['exact', 'near'] as const;
export type DedupScope = (typeof DEDUP_SCOPES)[number];

export const KEEP_RULES = ['largest_resolution', 'sharpest', 'earliest_capture', 'first_uploaded', 'custom_field'] as const;
export type KeepRule = (typeof KEEP_RULES)[number];

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** The tag a dedup with `tag_only` gives the members it would have removed. */
export const DUPLICATE_TAG = 'duplicate';

/** Custom field types a keeper rule can order by (a list has no order). */
export const ORDERED_FIELD_TYPES: readonly FieldType[] = ['number', 'string', 'datetime', 'boolean'];

export interface DedupRequest {
  scope: DedupScope;
  /** The cluster level of `near` (0 finest … 4 coarsest); null for `exact`. */
  level: number | null;
  keep: KeepRule;
  /** The custom field and its order, for `custom_field` only. */
  field: string | null;
  order: SortOrder | null;
  tagOnly: boolean;
}

/** What a body or a task's config says, before it is checked. */
export interface DedupInput {
  scope?: unknown;
  level?: unknown;
  keep?: unknown;
  field?: unknown;
  order?: unknown;
  tag_only?: unknown;
}

const oneOf = <T extends string>(values: readonly T[], value: unknown, name: string): T => {
  if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
  throw errors.validation(`${name} must be one of ${values.join(', ')}`);
};

/** The request checked as a whole (422 naming the field); what the route's schema cannot say alone. */
export function dedupRequest(input: DedupInput): DedupRequest {
  const scope = oneOf(DEDUP_SCOPES, input.scope, 'scope');
  const keep = oneOf(KEEP_RULES, input.keep, 'keep');
  let level: number | null = null;
  if (scope === 'near') {
    const given = input.level ?? 0;
    if (typeof given !== 'number' || !Number.isInteger(given) || given < 0 || given >= CLUSTER_LEVELS) {
      throw errors.validation(`level must be an integer from 0 to ${CLUSTER_LEVELS - 1}`);
    }
    level = given;
  } else if (input.level !== undefined && input.level !== null) {
    throw errors.validation('level applies to scope near only');
  }
  const custom = keep === 'custom_field';
  if (!custom && (input.field != null || input.order != null)) throw errors.validation('field and order apply to keep custom_field only');
  if (custom && (typeof input.field !== 'string' || input.field.trim() === '')) {
    throw errors.validation('keep custom_field needs field: the name of a custom metadata field of the dataset');
  }
  if (custom && input.order == null) throw errors.validation('keep custom_field needs order: asc (keep the lowest value) or desc (keep the highest)');
  return {
    scope,
    level,
    keep,
    field: custom ? (input.field as string).trim() : null,
    order: custom ? oneOf(SORT_ORDERS, input.order, 'order') : null,
    tagOnly: input.tag_only === true,
  };
}

/** The request as a task's config keeps it (read back by dedupRequest). */
export function dedupConfig(request: DedupRequest): Record<string, unknown> {
  return { scope: request.scope, level: request.level, keep: request.keep, field: request.field, order: request.order, tag_only: request.tagOnly };
}

/** "exact, largest_resolution", "near level 2, custom_field split desc, tag only". */
export function describeDedup(request: DedupRequest): string {
  const scope = request.scope === 'near' ? `near level ${request.level}` : 'exact';
  const keep = request.keep === 'custom_field' ? `custom_field ${request.field} ${request.order}` : request.keep;
  return `${scope}, ${keep}${request.tagOnly ? ', tag only' : ''}`;
}

/** The snapshot a dedup takes of the head before it changes it, named for the dedup: "Before dedup 2026-11-28 10:15 (exact, largest_resolution)" (UTC). */
export function dedupSnapshotName(request: DedupRequest, at: Date): string {
  const minute = at.toISOString().slice(0, 16).replace('T', ' ');
  return `Before dedup ${minute} (${describeDedup(request)})`;
}
