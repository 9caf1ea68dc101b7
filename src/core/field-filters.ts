import { type FieldTypes, type FieldType, isDateTimeText } from './custom-fields.js';
import type { FieldFilter } from './vql.js';

/** What each field type can be compared with, as a 422 tells the caller. */
const TAKES: Record<FieldType, string> = {
  number: 'eq, ne, gt, gte, lt, lte or between with numbers',
  datetime: 'eq, ne, gt, gte, lt, lte or between with ISO 8601 datetimes',
  string: 'eq, ne or contains with a string',
  string_list: 'eq, ne or contains with a string',
  boolean: 'eq or ne with true or false',
};

function fits(filter: FieldFilter, type: FieldType): boolean {
  if (filter.op === 'exists') return true;
  const values = filter.op === 'between' ? filter.value : [filter.value];
  const isDateTime = (v: unknown) => typeof v === 'string' && isDateTimeText(v);
  switch (type) {
    case 'number':
      return filter.op !== 'contains' && values.every((v) => typeof v === 'number');
    case 'datetime':
      return filter.op !== 'contains' && values.every(isDateTime);
    case 'string':
    case 'string_list':
      return ['eq', 'ne', 'contains'].includes(filter.op) && typeof filter.value === 'string';
    case 'boolean':
      return ['eq', 'ne'].includes(filter.op) && typeof filter.value === 'boolean';
  }
}

/**
 * Why a custom field condition cannot match anything on a version with these field types (an unknown field,
 * or a value of another type than the field's), or null when it can: such a filter is a mistake, not an empty result.
 */
export function fieldFilterProblem(filter: FieldFilter, types: FieldTypes): string | null {
  const type = types[filter.field];
  if (!type) {
    const known = Object.keys(types).sort();
    return `Unknown custom field '${filter.field}': ${known.length ? `this dataset's fields are ${known.join(', ')}` : 'this dataset has no custom fields'}`;
  }
  if (fits(filter, type)) return null;
  return `Custom field '${filter.field}' is a ${type} field: it takes ${TAKES[type]} (or exists), not ${filter.op} with ${JSON.stringify(filter.value)}`;
}
