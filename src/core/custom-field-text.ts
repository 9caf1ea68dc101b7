import { type FieldType, type FieldTypes, type KeyColumn, coerce, normaliseDateTime, readRow } from './custom-fields.js';

/** A row as staged: its key and its given fields as a JSON object's text, or why it is rejected. */
export type RowText = { ok: true; key: string; fields: string } | { ok: false; reason: string };

/** A cell's JSON text, null when not given, or a rejection. */
type CellText = (raw: string) => string | null | { reason: string };

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/**
 * A number written the way String(Number(text)) writes it, so it is its own JSON: no sign but minus, no leading
 * or trailing zero, no exponent. Within 15 characters it has at most 15 digits, which a double keeps exactly, and
 * no more than five zeros after "0." (from 1e-7 down String writes an exponent). "-0" is not: it is written "0".
 */
const CANONICAL_NUMBER = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
const TINY = /^-?0\.000000/;
export const isCanonicalNumber = (text: string) => text.length <= 15 && CANONICAL_NUMBER.test(text) && text !== '-0' && !TINY.test(text);
const DATETIMES_KEPT = 4096;
/** A list of printable ASCII strings with nothing to escape, written tight: already the JSON that parse and stringify would give. */
const PLAIN_LIST = /^\[(?:"[\x20\x21\x23-\x5b\x5d-\x7e]*"(?:,"[\x20\x21\x23-\x5b\x5d-\x7e]*")*)?\]$/;

/**
 * readRow for CSV cells, compiled once per file: the same checks, reasons and values, but each cell goes straight
 * to JSON text by its column's converter, with no object per row. Anything off the common path asks coerce.
 */
export function textRowReader(columns: readonly string[], key: KeyColumn, types: FieldTypes): (cells: readonly string[]) => RowText {
  const keyAt = columns.indexOf(key);
  const fields = Object.entries(types).map(([name, type]) => {
    const prefix = `${JSON.stringify(name)}:`;
    return { name, at: columns.indexOf(name), prefix, next: `,${prefix}`, text: cellText(name, type) };
  });
  return (cells) => {
    const keyCell = keyAt === -1 ? '' : cells[keyAt]!;
    let keyText = keyCell;
    if (key === 'media_id' || !isPlain(keyCell)) {
      const checked = readRow({ [key]: keyCell }, key, {}, true);
      if (!checked.ok) return checked;
      keyText = checked.key;
    }
    let json = '{';
    for (const field of fields) {
      const out = field.at === -1 ? null : field.text(cells[field.at]!);
      if (out === null) continue;
      if (typeof out !== 'string') return { ok: false, reason: `field '${field.name}': ${out.reason}` };
      json += (json.length === 1 ? field.prefix : field.next) + out;
    }
    return { ok: true, key: keyText, fields: `${json}}` };
  };
}

/** No whitespace at either end (the common case): no trim needed. */
const isPlain = (cell: string) => cell.length > 0 && cell.charCodeAt(0) > 32 && cell.charCodeAt(0) < 127 && cell.charCodeAt(cell.length - 1) > 32 && cell.charCodeAt(cell.length - 1) < 127;

function cellText(name: string, type: FieldType): CellText {
  const slow = (raw: string) => {
    const r = coerce(raw, type, true);
    return r.ok ? (r.value === null ? null : JSON.stringify(r.value)) : { reason: r.reason };
  };
  switch (type) {
    case 'string':
      return (raw) => (isPlain(raw) && raw.length <= 10_000 ? JSON.stringify(raw) : slow(raw));
    case 'number':
      return (raw) => {
        // Most numbers in files are already written as String would write them: formatting a double is dear.
        if (isCanonicalNumber(raw)) return raw;
        if (!isPlain(raw) || !NUMBER.test(raw)) return slow(raw);
        const n = Number(raw);
        return Number.isFinite(n) ? String(n) : 'null';
      };
    case 'boolean':
      return (raw) => (raw === 'true' || raw === 'false' ? raw : slow(raw));
    case 'datetime': {
      // Files repeat their datetimes (days, hours): parsing each distinct one once saves most of the work.
      const seen = new Map<string, string>();
      return (raw) => {
        const known = seen.get(raw);
        if (known !== undefined) return known;
        const iso = isPlain(raw) ? normaliseDateTime(raw) : null;
        if (iso === null) return slow(raw);
        if (seen.size >= DATETIMES_KEPT) seen.clear();
        seen.set(raw, `"${iso}"`);
        return `"${iso}"`;
      };
    }
    case 'string_list':
      return (raw) => {
        if (raw.length < 3_000 && PLAIN_LIST.test(raw)) return raw;
        let list: unknown;
        try {
          list = JSON.parse(raw);
        } catch {
          return slow(raw);
        }
        return Array.isArray(list) && list.length <= 1_000 && list.every((v) => typeof v === 'string') ? JSON.stringify(list) : slow(raw);
      };
  }
  throw new Error(`field '${name}': unknown type ${String(type)}`);
}
