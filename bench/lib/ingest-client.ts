// The ingestion benchmark's client in a process of its own, as a real client is: its fetch streams and its garbage
// collections stay out of the server's process (in one process, each of the client's collections also marked the
// server's heap). Requests and replies over IPC; times travel as epoch milliseconds.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type IngestResult, ingest } from './ingest.js';
import type { GeneratedFile } from './media-gen.js';

interface Request {
  id: number;
  base: string;
  token: string;
  name: string;
  files: GeneratedFile[];
}

type Reply =
  | { id: number; ok: true; result: Omit<IngestResult, 'progressAt'> & { progressAt: [number, number][] }; cpuSeconds: number }
  | { id: number; ok: false; message: string };

const toEpoch = (t: number) => performance.timeOrigin + t;
const fromEpoch = (t: number) => t - performance.timeOrigin;

export interface ClientRun extends IngestResult {
  /** CPU seconds the client process used for the run (user + system). */
  clientCpu: number;
}

export class IngestClient {
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (r: ClientRun) => void; reject: (e: Error) => void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (!reply.ok) return waiter.reject(new Error(reply.message));
      const { t, progressAt, ...rest } = reply.result;
      waiter.resolve({
        ...rest,
        t: { start: fromEpoch(t.start), uploaded: fromEpoch(t.uploaded), processStart: fromEpoch(t.processStart), ready: fromEpoch(t.ready) },
        progressAt: new Map(progressAt.map(([mark, at]) => [mark, fromEpoch(at)])),
        clientCpu: reply.cpuSeconds,
      });
    });
    child.once('exit', (code) => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`ingest client exited with code ${code}`));
      this.waiting.clear();
    });
  }

  static start(): IngestClient {
    return new IngestClient(fork(fileURLToPath(import.meta.url), ['serve'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  }

  ingest(base: string, token: string, name: string, files: GeneratedFile[]): Promise<ClientRun> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, base, token, name, files } satisfies Request);
    });
  }

  close(): void {
    this.child.kill();
  }
}

if (process.argv[2] === 'serve' && process.send) {
  process.on('message', (request: Request) => {
    const from = process.cpuUsage();
    ingest(request.base, request.token, request.name, request.files).then(
      (r) => {
        const used = process.cpuUsage(from);
        const t = { start: toEpoch(r.t.start), uploaded: toEpoch(r.t.uploaded), processStart: toEpoch(r.t.processStart), ready: toEpoch(r.t.ready) };
        const progressAt = [...r.progressAt].map(([mark, at]): [number, number] => [mark, toEpoch(at)]);
        process.send!({ id: request.id, ok: true, result: { ...r, t, progressAt }, cpuSeconds: (used.user + used.system) / 1e6 } satisfies Reply);
      },
      (err: unknown) => process.send!({ id: request.id, ok: false, message: err instanceof Error ? err.message : String(err) } satisfies Reply),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
