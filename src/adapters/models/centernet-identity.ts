export const CENTERNET_EMBEDDING_DIMENSIONS = 480;

/** What the embedder at `inputSize` records as its identity (kept apart from the model so the API need not load tfjs). */
export function centerNetIdentity(inputSize: number): { model: string; version: string; dimensions: number } {
  return { model: 'centernet-mbv3-gap', version: `human-3/centernet@${inputSize}/v1`, dimensions: CENTERNET_EMBEDDING_DIMENSIONS };
}

/** The input side an embedder of this graph accepts: a positive multiple of 32 (default 256). */
export function centerNetInputSize(inputSize = 256): number {
  if (!Number.isInteger(inputSize) || inputSize < 32 || inputSize % 32 !== 0) {
    throw new RangeError(`inputSize must be a positive multiple of 32, got ${inputSize}`);
  }
  return inputSize;
}
