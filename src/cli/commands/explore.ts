import path from 'node:path';
import { Option, type Command } from 'commander';
import type { Cluster, ExplorePage } from '../../../sdk/src/index.js';
import { connect } from '../client.js';
import { UsageError } from '../exit-codes.js';
import { print } from '../output.js';
import { integer, withJson } from '../options.js';

interface ExploreOptions {
  level: number;
  issue?: string;
  similar?: string;
  similarTo?: string;
  page: number;
  json?: boolean;
}

/** The server's issue_type values; `blurry` reads better on a command line. */
const ISSUES: Record<string, string> = { outliers: 'outliers', duplicates: 'duplicates', blurry: 'blur', blur: 'blur', dark: 'dark', bright: 'bright' };

function clusterLines(c: Cluster): string {
  const head = `${c.cluster_id}  ${c.n_media} media`;
  const members = c.previews.map((p) => `  ${p.media_id}  ${p.file_name}${p.issues.length ? `  [${p.issues.join(', ')}]` : ''}`);
  const more = c.n_media > c.previews.length ? [`  … ${c.n_media - c.previews.length} more`] : [];
  return [head, ...members, ...more].join('\n');
}

function pageText(page: ExplorePage): string {
  const pages = Math.max(1, Math.ceil(page.total_clusters / page.clusters_per_page));
  const head = `level ${page.threshold}, page ${page.page_number + 1} of ${pages}: ${page.total_clusters} clusters`;
  return [head, ...page.clusters.map(clusterLines)].join('\n');
}

export function exploreCommands(program: Command): void {
  withJson(
    program
      .command('explore')
      .description('a page of a dataset\'s clusters, largest first (or closest first with --similar/--similar-to)')
      .argument('<dataset_id>')
      .option('--level <n>', 'cluster granularity: 0 = near-duplicates … 4 = broad similarity', integer(0, 4), 0)
      .addOption(new Option('--issue <type>', 'only media with this issue').choices(Object.keys(ISSUES)))
      .option('--similar <file>', 'media like this image file (uploaded as the anchor)')
      .option('--similar-to <media_id>', 'media like this media of the dataset')
      .option('--page <n>', 'page number, from 1 (100 clusters a page)', integer(1), 1),
    'the Explore page: {"clusters","page_number","threshold","total_clusters",…}',
  ).action(async (id: string, opts: ExploreOptions) => {
    if (opts.similar && opts.similarTo) throw new UsageError('give --similar FILE or --similar-to MEDIA_ID, not both');
    const loupe = connect();
    const query = {
      level: opts.level,
      page: opts.page - 1,
      ...(opts.issue ? { issueType: ISSUES[opts.issue] } : {}),
      ...(opts.similarTo ? { similarTo: opts.similarTo } : {}),
    };
    const page = opts.similar ? await loupe.similarToImage(id, path.resolve(opts.similar), query) : await loupe.explore(id, query);
    print(page, Boolean(opts.json), () => pageText(page));
  });

  withJson(
    program.command('duplicates').description('the groups of near-duplicate media of a dataset (level-0 clusters of two or more)').argument('<dataset_id>'),
    'an array of clusters',
  ).action(async (id: string, opts: { json?: boolean }) => {
    const groups: Cluster[] = [];
    for await (const c of connect().duplicateGroups(id)) groups.push(c);
    print(groups, Boolean(opts.json), () => (groups.length ? groups.map(clusterLines).join('\n') : '(no duplicates)'));
  });
}
