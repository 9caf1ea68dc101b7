import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { analyzeImage } from '../src/adapters/media/image.js';
import { SNIFF_BYTES, sniff } from '../src/adapters/media/sniff.js';
import { loadImageEmbedder } from '../src/adapters/models/image-embedder.js';
import type { Embedder } from '../src/adapters/models/embedder.js';
import { PRIOR_WEIGHT, embeddingPrior } from '../src/adapters/models/embedding-prior.js';
import { CLUSTER_LEVELS, DEFAULT_LEVEL_RULES, PHASH_MAX_DISTANCE } from '../src/core/clustering.js';
import { centreRows, computeIndex } from '../src/modules/indexing/compute-index.js';
import { PHOTO_EDITS } from '../test/support/photo-edits.js';
import { generateJpegs } from './lib/media-gen.js';
import { type BenchReport, type Goal, fixed } from './lib/report.js';

const PHOTOS = ['astronaut.png', 'chelsea.png', 'coffee.png', 'dog.jpg', 'horses.jpg', 'kite.jpg', 'person.jpg'];
const PHOTO_DIR = new URL('../test/fixtures/photos/', import.meta.url);
const PRODUCTION_SIZE = 256;
const DISTRACTORS = 20;
const THREADS = 2;
const GOAL_TOP1 = 0.95;
/** Timed passes over all items; the fastest counts (a 2-CPU machine is noisy). */
const ANALYZE_PASSES = 2;
const EMBED_PASSES = 3;

/** BENCH_EMBED_SIZES: embedder input sides, comma-separated (default 224,256,320); multiples of 32. */
function embedSizes(): number[] {
  const raw = process.env.BENCH_EMBED_SIZES?.trim() || '224,256,320';
  const sizes = raw.split(',').map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 32 || n % 32 !== 0)) throw new Error(`BENCH_EMBED_SIZES must be multiples of 32, comma-separated (got "${raw}")`);
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/** One file to embed: an original photo, an edit of one, or a distractor (its own source). */
interface Item {
  file: string;
  format: string;
  source: string;
  edit: string | null;
}

interface Embedded {
  vectors: Float32Array[];
  phashes: string[];
  analyzeMs: number;
  embedMs: number;
}

interface Quality {
  items: number;
  editTop1: number;
  edits: number;
  originalTop1: number;
  originals: number;
  purity: number;
  recall: number;
  level0Clusters: number;
  /** Level-0 clusters holding more than one source. */
  mixed: number;
  minSame: number;
  maxDifferent: number;
  levelCounts: number[];
  /** Per level: clusters holding both photo items and distractors. */
  photoDistractorClusters: number[];
  /** Purity over the photo items alone. */
  photoPurity: number;
  maxPhotoDistractor: number;
  maxDistractorDistractor: number;
  /** Level-0 clusters of more than one item, as their members' short names. */
  groups: string[];
}

async function formatOf(file: string): Promise<string> {
  return sniff((await readFile(file)).subarray(0, SNIFF_BYTES)).format;
}

/** The 7 photos and their 4 edits each, written to `dir`. */
async function photoItems(dir: string): Promise<Item[]> {
  const items: Item[] = [];
  for (const name of PHOTOS) {
    const original = new URL(name, PHOTO_DIR).pathname;
    items.push({ file: original, format: await formatOf(original), source: name, edit: null });
    const bytes = await readFile(original);
    for (const [edit, apply] of Object.entries(PHOTO_EDITS)) {
      const file = path.join(dir, `${path.parse(name).name}-${edit}.jpg`);
      await writeFile(file, await apply(bytes));
      items.push({ file, format: await formatOf(file), source: name, edit });
    }
  }
  return items;
}

/** analyzeImage with the embedder, one file at a time (timed), then the embedder alone on pre-squeezed inputs (timed). */
async function embedAll(items: Item[], embedder: Embedder): Promise<Embedded> {
  const model = `${embedder.name}@${embedder.version}`;
  await analyzeImage(items[0]!.file, items[0]!.format, undefined, embedder); // warm-up: sharp, the first decode
  let vectors: Float32Array[] = [];
  let phashes: string[] = [];
  let analyzeMs = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < ANALYZE_PASSES; pass++) {
    [vectors, phashes] = [[], []];
    const t = performance.now();
    for (const item of items) {
      const a = await analyzeImage(item.file, item.format, undefined, embedder);
      if (!a.embedding || a.embedding.model !== model) throw new Error(`${item.file}: no embedding for ${model}`);
      vectors.push(a.embedding.vector);
      phashes.push(a.phash);
    }
    analyzeMs = Math.min(analyzeMs, (performance.now() - t) / items.length);
  }

  const side = embedder.inputSize;
  const inputs = await Promise.all(
    items.map(async (item) => ({
      data: await sharp(item.file).resize(side, side, { fit: 'fill' }).removeAlpha().raw().toBuffer(),
      width: side,
      height: side,
    })),
  );
  await embedder.embed(inputs[0]!);
  let embedMs = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < EMBED_PASSES; pass++) {
    const t = performance.now();
    for (const input of inputs) await embedder.embed(input);
    embedMs = Math.min(embedMs, (performance.now() - t) / items.length);
  }
  return { vectors, phashes, analyzeMs, embedMs };
}

const shortName = (item: Item) => `${path.parse(item.source).name}${item.edit ? `/${item.edit}` : ''}`;

/** computeIndex as the index stage runs it, then the quality of what it found against the known sources. */
async function measure(items: Item[], raw: Float32Array[], phashes: string[], model: string): Promise<Quality> {
  const n = items.length;
  const d = raw[0]!.length;
  const vectors = new Float32Array(n * d);
  raw.forEach((v, i) => vectors.set(v, i * d));
  const output = await computeIndex({ vectors: new Float32Array(vectors), dimensions: d, phashes, prior: embeddingPrior(model), threads: THREADS, indexPath: null });
  // Centred on the mean computeIndex used, and re-normalised, as it centres them: dot products are centred cosines.
  centreRows(vectors, d, output.mean);
  const cos = (i: number, j: number) => {
    let s = 0;
    for (let x = 0; x < d; x++) s += vectors[i * d + x]! * vectors[j * d + x]!;
    return s;
  };
  const isPhoto = (i: number) => PHOTOS.includes(items[i]!.source);

  let editTop1 = 0;
  let edits = 0;
  let originalTop1 = 0;
  let originals = 0;
  let minSame = Number.POSITIVE_INFINITY;
  let maxDifferent = Number.NEGATIVE_INFINITY;
  let maxPhotoDistractor = Number.NEGATIVE_INFINITY;
  let maxDistractorDistractor = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    let best = -1;
    let bestSim = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const s = cos(i, j);
      if (s > bestSim) [best, bestSim] = [j, s];
      if (j > i) {
        if (items[i]!.source === items[j]!.source) minSame = Math.min(minSame, s);
        else maxDifferent = Math.max(maxDifferent, s);
        if (isPhoto(i) !== isPhoto(j)) maxPhotoDistractor = Math.max(maxPhotoDistractor, s);
        else if (!isPhoto(i)) maxDistractorDistractor = Math.max(maxDistractorDistractor, s);
      }
    }
    if (!isPhoto(i)) continue;
    const hit = items[best]!.source === items[i]!.source ? 1 : 0;
    if (items[i]!.edit) [editTop1, edits] = [editTop1 + hit, edits + 1];
    else [originalTop1, originals] = [originalTop1 + hit, originals + 1];
  }

  const level0 = output.levels[0]!;
  const members = new Map<number, number[]>();
  level0.forEach((label, i) => members.set(label, [...(members.get(label) ?? []), i]));
  let pure = 0;
  let purePhotos = 0;
  let mixed = 0;
  const groups: string[] = [];
  for (const list of members.values()) {
    const counts = new Map<string, number>();
    for (const i of list) counts.set(items[i]!.source, (counts.get(items[i]!.source) ?? 0) + 1);
    const majority = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    pure += list.filter((i) => items[i]!.source === majority).length;
    purePhotos += list.filter((i) => isPhoto(i) && items[i]!.source === majority).length;
    if (counts.size > 1) mixed++;
    if (list.length > 1) groups.push(`{${list.map((i) => shortName(items[i]!)).join(', ')}}`);
  }
  let pairs = 0;
  let together = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (items[i]!.source !== items[j]!.source) continue;
      pairs++;
      if (level0[i] === level0[j]) together++;
    }
  }
  return {
    items: n,
    editTop1,
    edits,
    originalTop1,
    originals,
    purity: pure / n,
    recall: pairs === 0 ? 1 : together / pairs,
    level0Clusters: members.size,
    mixed,
    minSame,
    maxDifferent,
    levelCounts: output.levels.map((labels) => new Set(labels).size),
    photoDistractorClusters: output.levels.map((labels) => {
      const withPhoto = new Set<number>();
      const withDistractor = new Set<number>();
      labels.forEach((label, i) => (isPhoto(i) ? withPhoto : withDistractor).add(label));
      return [...withPhoto].filter((label) => withDistractor.has(label)).length;
    }),
    photoPurity: purePhotos / items.filter((item) => PHOTOS.includes(item.source)).length,
    maxPhotoDistractor,
    maxDistractorDistractor,
    groups,
  };
}

const pct = (x: number) => `${fixed(100 * x, 1)} %`;
const ratio = (hit: number, of: number) => `${hit}/${of} ${pct(of === 0 ? 1 : hit / of)}`;

/**
 * Near-duplicate quality on real photos: the 7 fixture photos and 4 edits of each, embedded through the
 * production path (analyzeImage with the CenterNet embedder) at each input size, indexed by computeIndex.
 */
export async function indexQuality(): Promise<BenchReport> {
  const sizes = embedSizes();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-bench-quality-'));
  try {
    const photos = await photoItems(dir);
    const distractorFiles = await generateJpegs(path.join(dir, 'distractors'), 'distractor', DISTRACTORS, 7);
    const distractors: Item[] = distractorFiles.map((f) => ({ file: f.path, format: 'jpeg', source: f.name, edit: null }));

    const rows: string[][] = [];
    const details: string[] = [];
    const goals: Goal[] = [];
    const withPrior: number[] = [];
    const row = (label: string, e: Embedded | null, q: Quality) => [
      label,
      String(q.items),
      e ? fixed(e.analyzeMs, 1) : '-',
      e ? fixed(e.embedMs, 1) : '-',
      ratio(q.editTop1, q.edits),
      ratio(q.originalTop1, q.originals),
      pct(q.purity),
      pct(q.recall),
      String(q.level0Clusters),
      q.items > photos.length ? `${q.mixed} (${q.photoDistractorClusters[0]} photo+distr.)` : String(q.mixed),
      fixed(q.minSame, 3),
      fixed(q.maxDifferent, 3),
      fixed(q.minSame - q.maxDifferent, 3),
      q.levelCounts.join(' / '),
    ];
    for (const size of sizes) {
      process.stderr.write(`  index-quality: ${size} px\n`);
      const embedder = await loadImageEmbedder(size);
      try {
        const model = `${embedder.name}@${embedder.version}`;
        const prior = embeddingPrior(model);
        if (prior) withPrior.push(size);
        const e = await embedAll(photos, embedder);
        const q = await measure(photos, e.vectors, e.phashes, model);
        rows.push(row(`${size} px${prior ? '' : ', no prior'}`, e, q));
        details.push(`${size} px level-0 groups: ${q.groups.join(' ') || '(none)'}`);
        if (size === PRODUCTION_SIZE) {
          goals.push(
            { description: `${size} px: near-duplicate top-1 >= ${GOAL_TOP1 * 100} % (edited copies)`, actual: ratio(q.editTop1, q.edits), pass: q.editTop1 / q.edits >= GOAL_TOP1 },
            { description: `${size} px: level-0 purity = 100 %`, actual: pct(q.purity), pass: q.purity === 1 },
            { description: `${size} px: level-0 recall = 100 %`, actual: pct(q.recall), pass: q.recall === 1 },
          );
          const d = await embedAll(distractors, embedder);
          const all = [...photos, ...distractors];
          const qd = await measure(all, [...e.vectors, ...d.vectors], [...e.phashes, ...d.phashes], model);
          rows.push(row(`${size} px + ${DISTRACTORS} distractors${prior ? '' : ', no prior'}`, null, qd));
          details.push(
            `${size} px + ${DISTRACTORS} distractors level-0 groups: ${qd.groups.join(' ') || '(none)'}`,
            `  photo items alone: purity ${pct(qd.photoPurity)}; max centred cosine photo-distractor ${fixed(qd.maxPhotoDistractor, 3)}, ` +
              `distractor-distractor ${fixed(qd.maxDistractorDistractor, 3)} (min same-source ${fixed(qd.minSame, 3)});`,
            `  clusters holding both photos and distractors, levels 0..${CLUSTER_LEVELS - 1}: ${qd.photoDistractorClusters.join(' / ')}.`,
          );
        }
      } finally {
        await embedder.close();
      }
    }
    if (!sizes.includes(PRODUCTION_SIZE)) details.push(`No goals: BENCH_EMBED_SIZES leaves out the production size ${PRODUCTION_SIZE}.`);

    return {
      title: `Near-duplicate quality on real photos: ${PHOTOS.length} photos x (original + ${Object.keys(PHOTO_EDITS).length} edits), embedder input ${sizes.join(', ')} px`,
      notes: [
        `Items: the ${PHOTOS.length} photos in test/fixtures/photos (${PHOTOS.join(', ')}) and their edits from`,
        `  test/support/photo-edits.ts (${Object.keys(PHOTO_EDITS).join(', ')}): ${photos.length} items, ${photos.length - PHOTOS.length} of them edited copies.`,
        'Embedding: analyzeImage(file, sniffed format, -, CenterNet embedder at the size), one file at a time, as an image worker does;',
        '  "analyze ms" = ms/image for the whole call (decode, thumbnail, preview, hash, quality, embed; after one warm-up call),',
        '  "embed ms" = ms/image for embedder.embed alone on the same files squeezed by sharp to size x size RGB beforehand (untimed).',
        `  Fastest of ${ANALYZE_PASSES} passes over the ${PHOTOS.length * (1 + Object.keys(PHOTO_EDITS).length)} items for analyze, of ${EMBED_PASSES} for embed; tfjs-wasm, 1 thread; ${os.cpus().length} CPUs.`,
        `Index: computeIndex as the index stage calls it (centring with the model's prior, threads ${THREADS}, no index file): k-NN graph,`,
        `  clusters at ${CLUSTER_LEVELS} levels (level 0: centred cosine >= ${DEFAULT_LEVEL_RULES[0]!.minSimilarity} or pHash distance <= ${PHASH_MAX_DISTANCE}).`,
        `  Prior: only ${PRODUCTION_SIZE} px ships one (embeddingPrior: weight ${PRIOR_WEIGHT}; here used at ${withPrior.join(', ') || 'no size'} px), and it is the mean of`,
        `  these same ${photos.length} items at ${PRODUCTION_SIZE} px, so those rows are in-sample; sizes marked "no prior" get prior null and centre on`,
        '  the dataset mean alone.',
        'Top-1: an item\'s nearest other item by centred cosine (over all items) comes from the same source photo; "edits" counts the',
        '  edited copies, "originals" the originals. Level 0: purity = fraction of items whose cluster\'s majority source is their own;',
        '  recall = fraction of same-source pairs in one level-0 cluster; ideal clusters = one per source (7; 27 with distractors);',
        '  mixed = level-0 clusters holding more than one source (each distractor is its own source; "photo+distr." = those holding',
        '  both photo items and distractors).',
        'Margin = min same-source centred cosine - max different-source centred cosine (positive: a threshold separates them).',
        `Distractors: ${DISTRACTORS} distinct synthetic 1024x768 JPEGs (bench/lib/media-gen.ts generateJpegs: textured gradient-and-shapes scenes),`,
        `  embedded at ${PRODUCTION_SIZE} px and indexed together with the ${photos.length} photo items. Their scenes are seeded, but libvips noise`,
        '  (texture, grain) is not, so which distractors pair up at level 0 can change from run to run.',
      ],
      columns: ['case', 'items', 'analyze ms', 'embed ms', 'top-1 edits', 'top-1 originals', 'L0 purity', 'L0 recall', 'L0 clusters', 'mixed L0', 'min same', 'max diff', 'margin', 'clusters L0/L1/L2/L3/L4'],
      rows,
      goals,
      details,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
