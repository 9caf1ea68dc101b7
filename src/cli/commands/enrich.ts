import type { Command } from 'commander';
import { connect } from '../client.js';
import { UsageError } from '../exit-codes.js';
import { fields, print, table } from '../output.js';
import { collect, withJson } from '../options.js';
import { datasetFields } from '../present.js';
import { waitForDataset } from '../waiting.js';

export function enrichCommands(program: Command): void {
  withJson(
    program
      .command('enrich')
      .description('apply enrichment models: makes an enriched copy of the dataset (its id is printed); without --model, lists the models')
      .argument('<dataset_id>')
      .option('--model <type=id>', 'an enrichment type and the model to apply for it, e.g. CAPTION_IMAGES=blip; repeatable', collect)
      .option('--wait', 'wait until the enriched copy is READY, showing its progress'),
    '{"dataset_id","dataset"} of the copy, or without --model the models',
  ).action(async (id: string, opts: { model?: string[]; wait?: boolean; json?: boolean }) => {
    const loupe = connect();
    const json = Boolean(opts.json);
    if (!opts.model?.length) {
      const models = await loupe.enrichmentModels(id);
      print(models, json, () => table(['TYPE', 'ID', 'STATUS', 'NAME'], models.map((m) => [m.type, m.id, m.status, m.name])));
      return;
    }
    const models: Record<string, string> = {};
    for (const pair of opts.model) {
      const at = pair.indexOf('=');
      if (at <= 0 || at === pair.length - 1) throw new UsageError(`--model takes TYPE=ID, not ${pair}`);
      models[pair.slice(0, at)] = pair.slice(at + 1);
    }
    const { datasetId } = await loupe.enrich(id, models);
    const dataset = opts.wait ? await waitForDataset(loupe, datasetId, json) : await loupe.dataset(datasetId);
    print({ dataset_id: datasetId, dataset }, json, () => [fields([['enriched copy', datasetId]]), datasetFields(dataset)].join('\n'));
  });
}
