/**
 * The path of the first string (or object key) under `value` that holds U+0000, or undefined; PostgreSQL text cannot
 * store it, so such input is refused before it reaches a query. Iterative: a deeply nested body must not overflow the
 * stack; binary bodies (buffers) are not text and are skipped.
 */
export function nulPath(value: unknown, root: string): string | undefined {
  const pending: Array<[unknown, string]> = [[value, root]];
  while (pending.length) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\0')) return path;
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) pending.push([item[i], `${path}[${i}]`]);
    } else if (item && typeof item === 'object' && !ArrayBuffer.isView(item)) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const childPath = path ? `${path}.${key.replaceAll('\0', '\\0')}` : key.replaceAll('\0', '\\0');
        if (key.includes('\0')) return childPath;
        pending.push([child, childPath]);
      }
    }
  }
  return undefined;
}
