import { type BenchReport, formatTable } from './lib/report.js';

/**
 * Every measured claim, one file each; `BENCH_ONLY=task-list` runs a subset (BENCH_TASKS: its task count, default 100000).
 * BENCH_LISTS_MEDIA for lists (filtered Explore and every list): media in its dataset (default 100000). Settings: BENCH_DURATION,
 * BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_WORKERS (see lib/load.ts), BENCH_EXPLAIN=1 for query plans;
 * BENCH_INGEST_IMAGES for ingestion: image counts, comma-separated (default 500,2000; one number also works).
 * BENCH_STAGE_IMAGES for ingest-stages: JPEGs each stage runs over (default 60; EMBEDDING_INPUT_SIZE picks the embedder's input).
 * BENCH_INDEX_SIZES for index-graph: item counts, comma-separated (default 10000,100000,1000000).
 * BENCH_ADD_MEDIA_IMAGES for add-media: JPEGs per source (default 500); BENCH_REINDEX_ITEMS for its reindex at scale:
 * seeded media (default 10000). BENCH_SNAPSHOT_SIZES for snapshots: media counts (default 1000,100000,1000000).
 * BENCH_STREAMS for notifications: concurrent streams (default 5000).
 * BENCH_EXPORT_ITEMS, BENCH_EXPORT_BIG_ITEMS, BENCH_EXPORT_IMAGES for exports (defaults 10000, 1000000, 2000).
 * BENCH_ENRICH_IMAGES, BENCH_ENRICH_SLOW_IMAGES for enrichment-models: photos, and photos for its OCR/captioner rows (defaults 200, 50).
 * BENCH_ENRICH_E2E_IMAGES, BENCH_ENRICH_MODELS for enrichment (end to end through the API): photos (default 1000), TYPE=model_id pairs.
 * BENCH_ANNOTATION_MEDIA, BENCH_TAG_MEDIA, BENCH_IMPORT_ROWS for annotations (defaults 1000000, 100000, 1000000).
 * BENCH_IMPORT_ROWS, BENCH_STAGE_RUNS for import-stages: media and rows, and runs of each stage (defaults 1000000, 3).
 * scale (issue 23's table in one install): BENCH_SCALE_MEDIA seeded media (default 1000000), BENCH_SCALE_SAMPLES timed requests
 * per page row (default 20) within BENCH_SCALE_ROW_BUDGET_S seconds (default 10; at least 3), BENCH_SCALE_ADD_IMAGES for its add_media
 * (default 1000), BENCH_SCALE_EXPORT_IMAGES (default 2000), BENCH_SCALE_EXPORT_TIMEOUT_S per Parquet export (default 180),
 * BENCH_SCALE_TASKS (default = media); BENCH_EXPLAIN=1 writes EXPLAIN ANALYZE
 * of every query behind each timed page to BENCH_EXPLAIN_FILE (default a file in the temp dir, named in the notes).
 * BENCH_EXPLORE_MEDIA, BENCH_EXPLORE_REPEATS for explore: media of the big dataset, requests a row (defaults 100000, 20).
 * BENCH_SCALE_OUT_IMAGES for scale-out: images a creation case ingests (default 1000).
 * web-grid: the Explore grid's first page in Chromium (Debian's, or CHROMIUM_PATH), no settings.
 * read-latency: BENCH_READ_UPLOADERS (20), BENCH_READ_LANE_IMAGES (JPEGs each, 20), BENCH_READ_BATCH (10), BENCH_READ_DURATION (s, 60), BENCH_READ_GAP_MS (20).
 * curation (issue 29's analyses, bench/curation/cases.ts): BENCH_CURATION_SIZES seeded media, comma-separated (default 100000,1000000).
 */
// Loaded on demand, so a run carries only its own benchmark's modules (a server measured in this process then has
// no other bench's code on its heap).
const ENTRIES: Record<string, () => Promise<BenchReport>> = {
  'task-list': () => import('./task-list.js').then((m) => m.taskList()),
  lists: () => import('./filtered-lists.js').then((m) => m.filteredLists()),
  ingestion: () => import('./ingestion.js').then((m) => m.ingestion()),
  'ingest-stages': () => import('./ingest-stages.js').then((m) => m.ingestStages()),
  'index-graph': () => import('./index-graph.js').then((m) => m.indexGraph()),
  'index-quality': () => import('./index-quality.js').then((m) => m.indexQuality()),
  'add-media': () => import('./add-media.js').then((m) => m.addMedia()),
  snapshots: () => import('./snapshots.js').then((m) => m.snapshots()),
  notifications: () => import('./notifications.js').then((m) => m.notifications()),
  exports: () => import('./exports.js').then((m) => m.exportsBench()),
  'enrichment-models': () => import('./enrichment-models.js').then((m) => m.enrichmentModels()),
  enrichment: () => import('./enrichment.js').then((m) => m.enrichmentEndToEnd()),
  annotations: () => import('./annotations.js').then((m) => m.annotations()),
  'import-stages': () => import('./import-stages.js').then((m) => m.importStages()),
  scale: () => import('./scale.js').then((m) => m.scale()),
  explore: () => import('./explore.js').then((m) => m.explore()),
  'scale-out': () => import('./scale-out.js').then((m) => m.scaleOut()),
  'web-grid': () => import('./web-grid.js').then((m) => m.webGrid()),
  'read-latency': () => import('./read-latency.js').then((m) => m.readLatency()),
  curation: () => import('./curation.js').then((m) => m.curation()),
};

function print(report: BenchReport): void {
  console.log(`\n## ${report.title}\n`);
  for (const note of report.notes) console.log(note);
  console.log(`\n${formatTable(report.columns, report.rows)}\n`);
  if (report.goals.length > 0) {
    console.log('Goals:');
    for (const g of report.goals) console.log(`  ${g.pass ? 'PASS' : 'MISS'}  ${g.description} (actual ${g.actual})`);
  }
  if (report.details && report.details.length > 0) console.log(`\n${report.details.join('\n')}`);
}

async function main(): Promise<number> {
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
  const names = only && only.length > 0 ? only : Object.keys(ENTRIES);
  const unknown = names.filter((n) => !(n in ENTRIES));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(ENTRIES).join(', ')}`);
    return 2;
  }
  let failed = false;
  for (const name of names) {
    process.stderr.write(`running ${name}...\n`);
    try {
      print(await ENTRIES[name]!());
    } catch (err) {
      failed = true;
      console.error(`\n${name} failed:`, err);
    }
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();
