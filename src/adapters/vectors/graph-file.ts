import { readFile, writeFile } from 'node:fs/promises';

/** The neighbour lists of a k-NN graph, item after item, best first, by position in the index; -1 an empty slot. */
export interface StoredGraph {
  n: number;
  k: number;
  neighbours: Int32Array;
}

const MAGIC = 0x4c475231; // "LGR1"
const HEADER_BYTES = 16;

/**
 * Writes the graph's lists (not its similarities: readers want who, not how close) as a 16-byte header (magic, n, k,
 * 0) and n × k little-endian int32: 40 MB at a million media.
 */
export async function writeGraphFile(file: string, graph: StoredGraph): Promise<void> {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(graph.n, 4);
  header.writeUInt32LE(graph.k, 8);
  const body = Buffer.from(graph.neighbours.buffer, graph.neighbours.byteOffset, graph.n * graph.k * 4);
  await writeFile(file, Buffer.concat([header, body]));
}

export async function readGraphFile(file: string): Promise<StoredGraph> {
  const bytes = await readFile(file);
  if (bytes.byteLength < HEADER_BYTES || bytes.readUInt32LE(0) !== MAGIC) throw new Error(`${file} is not a neighbour graph`);
  const n = bytes.readUInt32LE(4);
  const k = bytes.readUInt32LE(8);
  if (bytes.byteLength !== HEADER_BYTES + n * k * 4) throw new Error(`${file}: a graph of ${n} × ${k} should be ${HEADER_BYTES + n * k * 4} bytes, not ${bytes.byteLength}`);
  const neighbours = new Int32Array(n * k);
  new Uint8Array(neighbours.buffer).set(bytes.subarray(HEADER_BYTES));
  return { n, k, neighbours };
}
