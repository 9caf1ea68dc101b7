import { describe, expect, it } from 'vitest';
import type { FieldTypes } from '../../src/core/custom-fields.js';
import { fieldFilterProblem } from '../../src/core/field-filters.js';
import type { FieldFilter } from '../../src/core/vql.js';

const types: FieldTypes = { n: 'number', d: 'datetime', s: 'string', l: 'string_list', b: 'boolean' };
const T = '2024-05-01T10:00:00.000Z';

describe('fieldFilterProblem', () => {
  it('accepts each type with the ops and values it can match', () => {
    const fine: FieldFilter[] = [
      { field: 'n', op: 'eq', value: 1 }, { field: 'n', op: 'gte', value: 2 }, { field: 'n', op: 'between', value: [1, 2] },
      { field: 'd', op: 'eq', value: T }, { field: 'd', op: 'lt', value: T }, { field: 'd', op: 'between', value: [T, T] },
      { field: 's', op: 'ne', value: 'x' }, { field: 's', op: 'contains', value: 'x' },
      { field: 'l', op: 'eq', value: 'x' }, { field: 'l', op: 'contains', value: 'x' },
      { field: 'b', op: 'eq', value: false },
      ...Object.keys(types).map((field): FieldFilter => ({ field, op: 'exists', value: false })),
    ];
    expect(fine.map((f) => fieldFilterProblem(f, types))).toEqual(fine.map(() => null));
  });

  it('refuses a value of another type than the field\'s, naming the field and what it takes', () => {
    const wrong: FieldFilter[] = [
      { field: 'n', op: 'eq', value: 'x' }, { field: 'n', op: 'contains', value: '1' }, { field: 'n', op: 'gt', value: T },
      { field: 'd', op: 'eq', value: 'x' }, { field: 'd', op: 'gt', value: 1 }, { field: 'd', op: 'contains', value: '2024' },
      { field: 's', op: 'eq', value: 1 }, { field: 's', op: 'gt', value: 1 }, { field: 'l', op: 'eq', value: true },
      { field: 'b', op: 'eq', value: 'true' }, { field: 'b', op: 'contains', value: 't' },
    ];
    for (const f of wrong) expect(fieldFilterProblem(f, types)).toMatch(new RegExp(`^Custom field '${f.field}' is a \\w+ field: it takes `));
    expect(fieldFilterProblem({ field: 'b', op: 'eq', value: 'yes' }, types)).toBe(
      'Custom field \'b\' is a boolean field: it takes eq or ne with true or false (or exists), not eq with "yes"',
    );
  });

  it('refuses an unknown field, listing the known ones', () => {
    expect(fieldFilterProblem({ field: 'x', op: 'exists', value: true }, types)).toBe("Unknown custom field 'x': this dataset's fields are b, d, l, n, s");
    expect(fieldFilterProblem({ field: 'x', op: 'eq', value: 1 }, {})).toBe("Unknown custom field 'x': this dataset has no custom fields");
  });
});
