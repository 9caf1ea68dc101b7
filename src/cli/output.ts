/** Everything a command prints to stdout: one JSON document with --json, compact lines without. */
export function print(value: unknown, json: boolean, text: string | (() => string)): void {
  if (json) process.stdout.write(`${JSON.stringify(value)}\n`);
  else {
    const line = typeof text === 'function' ? text() : text;
    if (line !== '') process.stdout.write(`${line}\n`);
  }
}

/** A message for the person at the terminal (stderr), so stdout stays the command's answer. */
export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(header: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cells = [header, ...rows.map((row) => row.map((c) => (c === null || c === undefined ? '-' : String(c))))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  return cells
    .map((row) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd())
    .join('\n');
}

/** key: value lines, keys aligned. */
export function fields(entries: Array<[string, unknown]>): string {
  const width = Math.max(...entries.map(([k]) => k.length)) + 1;
  return entries.map(([k, v]) => `${`${k}:`.padEnd(width)} ${v === null || v === undefined ? '-' : String(v)}`).join('\n');
}

export function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0);
}

/** A file size for people: kB under a megabyte, MB above. */
export function size(bytes: number): string {
  return bytes < 1_000_000 ? `${(bytes / 1000).toFixed(1)} kB` : `${megabytes(bytes)} MB`;
}

export function duration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
