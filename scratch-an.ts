import sharp from 'sharp';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os'; import path from 'node:path';
import { generateJpegs } from './bench/lib/media-gen.js';
import { analyzeImage } from './src/adapters/media/image.js';
import { loadImageEmbedder } from './src/adapters/models/image-embedder.js';
const dir = await mkdtemp(path.join(os.tmpdir(), 'an-'));
const files = (await generateJpegs(dir, 's', 40, 25)).map((f) => f.path);
const emb = await loadImageEmbedder(256);
const time = async (label: string) => {
  for (const f of files.slice(0, 5)) await analyzeImage(f, 'jpeg', undefined, emb);
  let best = 1e9;
  for (let p = 0; p < 3; p++) { const c = process.cpuUsage(); for (const f of files) await analyzeImage(f, 'jpeg', undefined, emb); const u = process.cpuUsage(c); best = Math.min(best, (u.user + u.system) / 1000 / files.length); }
  console.log(label.padEnd(40), best.toFixed(2));
};
for (const [conc, cache] of [[2, true], [1, true], [1, false], [2, false], [2, true], [1, false]] as const) {
  sharp.concurrency(conc); sharp.cache(cache);
  await time(`concurrency ${conc} cache ${cache}`);
}
