/** An integer setting from the environment, `fallback` when unset; anything else than an integer >= `min` stops the bench. */
export function intFromEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name]?.trim() || String(fallback);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min} (got "${raw}")`);
  return n;
}
