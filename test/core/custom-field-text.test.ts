import { describe, expect, it } from 'vitest';
import { isCanonicalNumber, textRowReader } from '../../src/core/custom-field-text.js';
import { type FieldTypes, type KeyColumn, readRow } from '../../src/core/custom-fields.js';

const CELLS = [
  '', '  ', 'rain', ' rain ', 'say "hi"\n', 'x'.repeat(10_001), '3.5', ' 7 ', '-2e3', '1e400', '.5', '1,5', 'true', 'false', ' true', 'yes',
  '2024-05-01', '2024-05-01T10:00:00Z', ' 2024-05-01T12:00:00+02:00 ', '2024-13-01', '2024-02-30T00:00:00Z', '["a","b"]', ' [ "a" ] ', '[]', '[1]',
  '0', '-0', '-0.5', '1.50', '007', '+5', '0.000001', '0.0000001', '123456789012345', '12345678901234567', '0.1000000000000000055511',
  'null', '{"a":1}', '[', '[""]', '["a", "b"]', '["a\\"b"]', '["é"]', JSON.stringify(Array.from({ length: 1_000 }, () => 'a')), JSON.stringify(Array.from({ length: 1_001 }, () => 'a')), 'naïve \\ tab\t',
];

/** readRow as the job used it: the row's fields object as JSON text. */
function expected(values: Record<string, string>, key: KeyColumn, types: FieldTypes) {
  const r = readRow(values, key, types, true);
  return r.ok ? { ok: true, key: r.key, fields: JSON.stringify(r.fields) } : r;
}

describe('textRowReader', () => {
  it('gives exactly what readRow gives for every kind of cell, in every field type', () => {
    const columns = ['file_name', 'weather', 'score', 'outdoor', 'taken', 'parts'];
    const types: FieldTypes = { weather: 'string', score: 'number', outdoor: 'boolean', taken: 'datetime', parts: 'string_list' };
    const read = textRowReader(columns, 'file_name', types);
    for (const cell of CELLS) {
      for (let at = 1; at < columns.length; at++) {
        for (const key of ['a.jpg', ' b.jpg ', '', '  ']) {
          const cells = columns.map((_, i) => (i === 0 ? key : i === at ? cell : ''));
          const values = Object.fromEntries(columns.map((c, i) => [c, cells[i]!]));
          expect(read(cells), JSON.stringify(cells)).toEqual(expected(values, 'file_name', types));
          expect(read(cells), `again ${JSON.stringify(cells)}`).toEqual(expected(values, 'file_name', types));
        }
      }
    }
  });

  it('checks and lowercases media_id keys as readRow does', () => {
    const types: FieldTypes = { n: 'number' };
    const read = textRowReader(['media_id', 'n'], 'media_id', types);
    for (const key of ['0F8FAD5B-D9CB-469F-A165-70867728950E', ' 0f8fad5b-d9cb-469f-a165-70867728950e ', 'dog.jpg', '']) {
      expect(read([key, '1'])).toEqual(expected({ media_id: key, n: '1' }, 'media_id', types));
    }
  });

  it('reports the first bad field in the order of the types, as readRow does', () => {
    const types: FieldTypes = { b: 'boolean', a: 'number' };
    expect(textRowReader(['file_name', 'a', 'b'], 'file_name', types)(['k', 'x', 'y'])).toEqual({ ok: false, reason: `field 'b': "y" is not a boolean (true or false)` });
  });

  it('passes a number through as written only where String(Number(text)) writes it the same', () => {
    // Random numerals from digits, zeros, a sign, a point and an exponent, up to 24 characters.
    const parts = ['0', '0', '00', '1', '5', '9', '12', '000000', '-', '+', '.', 'e', '3'];
    let seed = 42;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    let accepted = 0;
    for (let i = 0; i < 50_000; i++) {
      let text = '';
      for (let k = 1 + random(10); k > 0; k--) text += parts[random(parts.length)];
      if (!isCanonicalNumber(text)) continue;
      accepted += 1;
      expect(String(Number(text)), text).toBe(text);
    }
    expect(accepted).toBeGreaterThan(1_000);
    for (const text of ['0', '7', '-7', '0.5', '-0.5', '0.000001', '0.0000012', '12345678901234', '9999999999999.9']) expect(isCanonicalNumber(text), text).toBe(true);
    for (const text of ['-0', '+7', '07', '0.50', '.5', '5.', '1e3', '0.0000001', '123456789012345678', ' 7']) expect(isCanonicalNumber(text), text).toBe(false);
  });
});
