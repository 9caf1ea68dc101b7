import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.js';
import { signClientToken } from '../src/modules/auth/auth.service.js';
import { type Loupe, startLoupe } from '../src/server.js';
import { RssSampler, ingest } from './lib/ingest.js';
import type { GeneratedFile } from './lib/media-gen.js';
import { photoVariants } from './lib/photo-variants.js';
import { type BenchReport, fixed } from './lib/report.js';

const DEFAULT_MODELS = 'OBJECT_DETECTION=vl_object_detector_v00,CAPTION_OBJECTS=vl_object_captioner_v00,CAPTION_IMAGES=vl_image_captioner_v00';
const MB = 1e6;

/**
 * Enrichment end to end through the HTTP API: a dataset of N real-size photos (variants of the fixtures),
 * then enrich_dataset and the copy polled until READY; images/s over the whole task, objects found, peak RSS.
 * BENCH_ENRICH_E2E_IMAGES (default 1000), BENCH_ENRICH_MODELS (TYPE=id,… default detection + both captioners).
 */
export async function enrichmentEndToEnd(): Promise<BenchReport> {
  const n = Number(process.env.BENCH_ENRICH_E2E_IMAGES ?? 1000);
  const models = Object.fromEntries((process.env.BENCH_ENRICH_MODELS ?? DEFAULT_MODELS).split(',').map((pair) => pair.split('=') as [string, string]));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-enrich-'));
  let loupe: Loupe | undefined;
  let dataDir: string | undefined;
  try {
    const files: GeneratedFile[] = [];
    for (const [i, bytes] of (await photoVariants(n)).entries()) {
      const file = path.join(dir, `photo-${String(i).padStart(5, '0')}.jpg`);
      await writeFile(file, bytes);
      files.push({ path: file, name: path.basename(file), bytes: bytes.length });
    }
    // Its own temp folder: the embedded PostgreSQL (another user when run as root) must reach it.
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-'));
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }, { role: 'all' });
    loupe = await startLoupe(config);
    const issued = await loupe.container.services.auth.createUser('bench-enrichment@example.com');
    const token = await signClientToken(issued.api_key, issued.api_secret, 3600);
    const url = loupe.url!;
    const source = await ingest(url, token, 'bench-enrichment', files);

    const rss = new RssSampler();
    const started = performance.now();
    const res = await fetch(`${url}/api/v1/dataset/${source.datasetId}/enrich_dataset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ enrichment_models: models }),
    });
    if (res.status !== 200) throw new Error(`enrich_dataset: ${res.status} ${await res.text()}`);
    const { dataset_id: copyId } = (await res.json()) as { dataset_id: string };
    let copy: { status_new: string; n_objects: number; fatal_error_msg: string | null };
    for (;;) {
      copy = (await (await fetch(`${url}/api/v1/dataset/${copyId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as typeof copy;
      if (copy.status_new === 'READY') break;
      if (copy.status_new === 'ERROR') throw new Error(`enrichment failed: ${copy.fatal_error_msg}`);
      await sleep(500);
    }
    const seconds = (performance.now() - started) / 1000;
    const peak = rss.peak(started);
    rss.stop();
    return {
      title: `Enrichment end to end (${n} photos, ${Object.keys(models).join(' + ')})`,
      notes: [
        `Loupe in process (role all, embedded PostgreSQL), ENRICH_THREADS ${config.enrichment.threads}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)} at the end.`,
        'Photos: random crops of the repo fixtures at a 900–1100 px long side (lib/photo-variants.ts); time from enrich_dataset to the copy READY.',
      ],
      columns: ['photos', 'seconds', 'images/s', 'objects found', 'objects/photo', 'peak RSS MB (process)', 'dataset creation s'],
      rows: [[String(n), fixed(seconds, 1), fixed(n / seconds, 2), String(copy.n_objects), fixed(copy.n_objects / n, 2), fixed(peak / MB, 0), fixed((source.t.ready - source.t.start) / 1000, 1)]],
      goals: [],
    };
  } finally {
    await loupe?.close();
    await rm(dir, { recursive: true, force: true });
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}
