import { describe, expect, it } from 'vitest';
import { coerce, headerProblem, nativeType, normaliseDateTime, planFields, readRow, textType, typeConflicts } from '../../src/core/custom-fields.js';

describe('custom field values', () => {
  it('types CSV cells by the narrowest type they fit', () => {
    expect(['true', '3.5', '-2e3', '2024-05-01', '2024-05-01T10:00:00+02:00', '["a","b"]', '[1]', 'rain', '1,5'].map(textType)).toEqual([
      'boolean', 'number', 'number', 'datetime', 'datetime', 'string_list', 'string', 'string', 'string',
    ]);
  });

  it('types native values; objects and mixed lists are invalid', () => {
    expect([true, 1, 10n, new Date(0), 'x', '2024-01-01', ['a'], [1], { a: 1 }, null].map(nativeType)).toEqual([
      'boolean', 'number', 'number', 'datetime', 'string', 'datetime', 'string_list', 'invalid', 'invalid', null,
    ]);
  });

  it('coerces with reasons, normalising datetimes to UTC and treating blanks as not given', () => {
    expect(coerce('7', 'number', true)).toEqual({ ok: true, value: 7 });
    expect(coerce('7', 'number', false)).toEqual({ ok: false, reason: '"7" is not a number' });
    expect(coerce('', 'number', true)).toEqual({ ok: true, value: null });
    expect(coerce('2024-05-01T12:00:00+02:00', 'datetime', false)).toEqual({ ok: true, value: '2024-05-01T10:00:00.000Z' });
    expect(coerce('yes', 'boolean', true)).toEqual({ ok: false, reason: '"yes" is not a boolean (true or false)' });
    expect(coerce('["a"]', 'string_list', true)).toEqual({ ok: true, value: ['a'] });
    expect(coerce(5, 'string', true)).toEqual({ ok: true, value: '5' });
    expect(normaliseDateTime('2024-13-01')).toBeNull();
  });
});

describe('planFields', () => {
  const rows = [
    { file_name: 'a.jpg', score: '1', tag: 'x', when: '2024-01-01' },
    { file_name: 'b.jpg', score: '2.5', tag: '3', when: '' },
  ];

  it('fixes the key and the types from the header and a sample', () => {
    expect(planFields(['file_name', 'score', 'tag', 'when'], rows, true, {})).toEqual({
      ok: true,
      key: 'file_name',
      types: { score: 'number', tag: 'string', when: 'datetime' },
    });
    expect(planFields(['media_id', 'file_name', 'n'], [{ n: 1 }], false, {})).toMatchObject({ ok: true, key: 'media_id', types: { n: 'number' } });
  });

  it("keeps a field's existing type when the sample fits it, else reports the conflict", () => {
    expect(planFields(['file_name', 'score'], rows, true, { score: 'string' })).toMatchObject({ ok: true, types: { score: 'string' } });
    expect(planFields(['file_name', 'tag'], rows, true, { tag: 'number' })).toEqual({ ok: false, problem: "field 'tag' is number in this dataset but string in the file" });
    expect(planFields(['file_name', 'v'], [{ v: 1 }, { v: true }], false, {})).toEqual({ ok: false, problem: "type conflict: column 'v' holds both number and boolean values" });
    expect(planFields(['file_name', 'v'], [{ v: 'text' }, { v: '2024-01-01' }], false, {})).toMatchObject({ ok: true, types: { v: 'string' } });
  });

  it('names header problems', () => {
    expect(headerProblem(['name'])).toContain('no key column');
    expect(headerProblem(['file_name'])).toBe('the file has a key column but no field columns');
    expect(headerProblem(['file_name', 'a', 'a'])).toBe("column 'a' appears twice");
    expect(headerProblem(['file_name', '1st'])).toContain("column name '1st' is not a valid field name");
    expect(typeConflicts({ a: 'number' }, { a: 'string', b: 'number' })).toEqual(["field 'a' is number in this dataset but string in the file"]);
  });
});

describe('readRow', () => {
  const types = { score: 'number', tags: 'string_list' } as const;
  it('reads the key and the given values, or rejects the whole row with a reason', () => {
    expect(readRow({ file_name: ' a.jpg ', score: '2', tags: '' }, 'file_name', types, true)).toEqual({ ok: true, key: 'a.jpg', fields: { score: 2 } });
    expect(readRow({ file_name: '', score: '2' }, 'file_name', types, true)).toEqual({ ok: false, reason: 'empty file_name' });
    expect(readRow({ media_id: 'nope', score: 2 }, 'media_id', types, false)).toEqual({ ok: false, reason: "media_id 'nope' is not a UUID" });
    expect(readRow({ file_name: 'a', score: 'x' }, 'file_name', types, false)).toEqual({ ok: false, reason: `field 'score': "x" is not a number` });
    expect(readRow({ file_name: 'a', other: 1 }, 'file_name', types, false)).toMatchObject({ ok: false, reason: expect.stringContaining("column 'other'") });
    expect(readRow({ media_id: 'AAAAAAAA-0000-4000-8000-000000000000', score: null }, 'media_id', types, false)).toEqual({
      ok: true,
      key: 'aaaaaaaa-0000-4000-8000-000000000000',
      fields: {},
    });
  });
});
