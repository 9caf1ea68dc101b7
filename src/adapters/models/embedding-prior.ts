import { readFileSync } from 'node:fs';

/** How many items the prior mean counts as when it is blended with a dataset's own mean. */
export const PRIOR_WEIGHT = 20;

interface PriorFile {
  model: string;
  mean: number[];
}

const priors = new Map<string, Float32Array>();
for (const file of ['centernet-prior-mean.json']) {
  const prior = JSON.parse(readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')) as PriorFile;
  priors.set(prior.model, Float32Array.from(prior.mean));
}

/**
 * The mean embedding of a set of real photos for `model` (measured by bench/index-quality.ts), blended with
 * a dataset's mean before centring so that a dataset of two photos is not pushed to opposite poles.
 */
export function embeddingPrior(model: string): { mean: Float32Array; weight: number } | null {
  const mean = priors.get(model);
  return mean ? { mean: Float32Array.from(mean), weight: PRIOR_WEIGHT } : null;
}
