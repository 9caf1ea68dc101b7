import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface MetricsSource {
  /** Task totals by type and status, read from the trigger-kept counters at scrape time. */
  taskTotals(): Promise<Array<{ task_type: string; status: string; n: number }>>;
  /** Failures of each garbage sweep, where this process runs them. */
  sweeps?: () => Record<string, { failures: number }>;
}

/** Prometheus metrics at /metrics: process and event-loop defaults, HTTP latency by route, task totals, sweep failures. */
export function registerMetrics(app: FastifyInstance, source: MetricsSource): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'loupe_' });
  const duration = new Histogram({
    name: 'loupe_http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const requests = new Counter({
    name: 'loupe_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'loupe_tasks',
    help: 'Tasks by type and status',
    labelNames: ['task_type', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await source.taskTotals()) this.set({ task_type: row.task_type, status: row.status }, row.n);
    },
  });
  const sweeps = source.sweeps;
  if (sweeps) {
    new Counter({
      name: 'loupe_sweep_failures_total',
      help: 'Failed passes of each garbage sweep since the process started',
      labelNames: ['sweep'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [sweep, state] of Object.entries(sweeps())) this.inc({ sweep }, state.failures);
      },
    });
  }

  app.addHook('onResponse', async (request, reply) => {
    // Unmatched URLs share one label so random paths cannot blow up the series count.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    duration.observe(labels, reply.elapsedTime / 1000);
    requests.inc(labels);
  });

  app.get(
    '/metrics',
    { config: { public: true }, schema: { tags: ['system'], summary: 'Prometheus metrics (text exposition format)', response: { 200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } } } } },
    async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
  );
}
