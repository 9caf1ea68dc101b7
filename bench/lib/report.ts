/** What one benchmark entry hands back to `bench/run.ts`. */
export interface BenchReport {
  title: string;
  /** Lines printed above the table: what was measured and against what. */
  notes: string[];
  columns: string[];
  rows: string[][];
  goals: Goal[];
  /** Printed after the goals (e.g. query plans); may be empty. */
  details?: string[];
}

export interface Goal {
  description: string;
  actual: string;
  pass: boolean;
}


/** A markdown-style table; numeric-looking cells are right-aligned. */
export function formatTable(columns: string[], rows: string[][]): string {
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = columns.map((_, i) => rows.length > 0 && rows.every((r) => /^[-<\d.,%x ]*$/.test(r[i] ?? '')));
  const cell = (text: string, i: number) => (numeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|`;
  return [line(columns), rule, ...rows.map((r) => line(columns.map((_, i) => r[i] ?? '')))].join('\n');
}

/** The middle value (the upper of the two middles for an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function fixed(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '-';
}

/** autocannon latencies are whole milliseconds; 0 means the request took under one. */
export function ms(n: number): string {
  return n === 0 ? '<1' : fixed(n, 0);
}
