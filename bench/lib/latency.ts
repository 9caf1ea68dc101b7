/** Sequential latencies of one GET: what one user paging through the UI waits. */
export interface Latency {
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Size of the response body (the warm-up's), bytes. */
  bytes: number;
  body: string;
}

export interface LatencyOptions {
  /** Timed requests wanted (after one untimed warm-up that also checks the answer is 200). */
  samples: number;
  /** Stop early once this many seconds went by (at least `minSamples` are still taken). */
  budgetS: number;
  minSamples: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

/** One request at a time, on a kept-alive connection: a warm-up (status checked, body kept), then timed requests. */
export async function sequentialLatency(url: string, headers: Record<string, string>, options: LatencyOptions, init: RequestInit = {}): Promise<Latency> {
  const warm = await fetch(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) } });
  const body = await warm.text();
  if (warm.status !== 200) throw new Error(`${url}: ${warm.status} ${body.slice(0, 300)}`);
  const times: number[] = [];
  const started = performance.now();
  while (times.length < options.samples && (times.length < options.minSamples || performance.now() - started < options.budgetS * 1000)) {
    const t = performance.now();
    const res = await fetch(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { samples: times.length, p50Ms: percentile(times, 0.5), p95Ms: percentile(times, 0.95), maxMs: times[times.length - 1]!, bytes: Buffer.byteLength(body), body };
}
