import autocannon from 'autocannon';

/** One measured case: what the table prints for it. */
export interface LoadStats {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** Socket errors plus timeouts; non-zero means the numbers are not trustworthy. */
  errors: number;
  requests: number;
}

export interface LoadSettings {
  connections: number;
  durationS: number;
  warmupS: number;
  /** autocannon worker threads; 0 runs the load generator on the server's own event loop. */
  workers: number;
}

function positive(name: string, fallback: number, allowZero = false): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !allowZero)) throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number (got "${raw}")`);
  return n;
}

/** BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS (default 10), BENCH_WORKERS (default 1). */
export function loadSettingsFromEnv(): LoadSettings {
  return {
    durationS: positive('BENCH_DURATION', 10),
    warmupS: positive('BENCH_WARMUP', 2, true),
    connections: Math.round(positive('BENCH_CONNECTIONS', 10)),
    workers: Math.round(positive('BENCH_WORKERS', 1, true)),
  };
}

async function once(url: string, headers: Record<string, string>, settings: LoadSettings, durationS: number) {
  return autocannon({
    url,
    headers,
    connections: settings.connections,
    duration: durationS,
    ...(settings.workers > 0 ? { workers: settings.workers } : {}),
  });
}

/** A discarded warm-up run (JIT, connection pools, plan caches), then the measured run. */
export async function measure(url: string, headers: Record<string, string>, settings: LoadSettings): Promise<LoadStats> {
  if (settings.warmupS > 0) await once(url, headers, settings, settings.warmupS);
  const r = await once(url, headers, settings, settings.durationS);
  return {
    reqPerSec: r.requests.mean,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    requests: r.requests.total,
  };
}

/** One request, to check a case answers 200 with the expected body before loading it. */
export async function probe(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number; body: string }> {
  const res = await fetch(url, { headers });
  const body = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(body), body };
}
