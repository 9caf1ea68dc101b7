import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * The baseline: a bare Fastify 5 app, same process, one GET route that sends a precomputed JSON string
 * (a fake page of `pageSize` tasks shaped like Loupe's Task objects) as-is — no auth, no validation,
 * no serialization, no database. It is the ceiling for "an HTTP route returning that many bytes" here.
 */
export async function startBareServer(pageSize: number): Promise<{ app: FastifyInstance; url: string; bytes: number }> {
  const now = Date.now();
  const tasks = Array.from({ length: pageSize }, (_, i) => ({
    task_id: randomUUID(),
    dataset_id: randomUUID(),
    dataset_name: `bench-dataset-${String((i % 20) + 1).padStart(2, '0')}`,
    dataset_status: 'READY',
    created_by: 'bench@example.com',
    task_type: 'MEDIA_ADDITION',
    status: 'COMPLETED',
    status_message: 'Completed',
    progress_percentage: 100,
    error_message: null,
    start_time: new Date(now - (i + 1) * 60_000).toISOString(),
    end_time: new Date(now - i * 60_000).toISOString(),
  }));
  const body = JSON.stringify({ tasks, total: 100_000, page: 1, page_size: pageSize });

  const app = Fastify({ logger: false });
  app.get('/bare', (_request, reply) => {
    void reply.type('application/json; charset=utf-8').send(body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('bare server has no address');
  return { app, url: `http://127.0.0.1:${address.port}/bare`, bytes: Buffer.byteLength(body) };
}
