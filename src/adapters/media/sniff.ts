import { open } from 'node:fs/promises';

export type SniffedKind = 'image' | 'video' | 'archive' | 'unknown';
export interface Sniffed {
  kind: SniffedKind;
  format: string;
  mime: string;
}

/** How many leading bytes callers should pass: enough for a tar header and a long ftyp brand list. */
export const SNIFF_BYTES = 4100;

const UNKNOWN: Sniffed = { kind: 'unknown', format: 'unknown', mime: 'application/octet-stream' };

const image = (format: string, mime: string): Sniffed => ({ kind: 'image', format, mime });
const video = (format: string, mime: string): Sniffed => ({ kind: 'video', format, mime });
const archive = (format: string, mime: string): Sniffed => ({ kind: 'archive', format, mime });

/** Decides a file's type from its leading bytes (magic numbers); the file name is never consulted. */
export function sniff(head: Buffer): Sniffed {
  if (isTar(head)) return archive('tar', 'application/x-tar');
  if (startsWith(head, [0xff, 0xd8, 0xff])) return image('jpeg', 'image/jpeg');
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('png', 'image/png');
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return image('gif', 'image/gif');
  if (ascii(head, 0, 4) === 'RIFF') return sniffRiff(head);
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return sniffEbml(head);
  if (ascii(head, 4, 8) === 'ftyp') return sniffIsoBmff(head);
  if (QUICKTIME_LEADING_ATOMS.has(ascii(head, 4, 8))) return video('mov', 'video/quicktime');
  if (isZip(head)) return archive('zip', 'application/zip');
  if (startsWith(head, [0x1f, 0x8b])) return archive('gzip', 'application/gzip');
  if (isTiff(head)) return image('tiff', 'image/tiff');
  if (isBmp(head)) return image('bmp', 'image/bmp');
  return UNKNOWN;
}

function sniffRiff(head: Buffer): Sniffed {
  const form = ascii(head, 8, 12);
  if (form === 'WEBP') return image('webp', 'image/webp');
  if (form === 'AVI ') return video('avi', 'video/x-msvideo');
  return UNKNOWN;
}

/** Matroska and WebM share the EBML container; the header's DocType element (id 0x4282) tells them apart. */
function sniffEbml(head: Buffer): Sniffed {
  const end = Math.min(head.length, 4 + 64);
  for (let i = 4; i + 2 < end; i++) {
    if (head[i] !== 0x42 || head[i + 1] !== 0x82) continue;
    const sizeByte = head[i + 2] ?? 0;
    const sizeLength = Math.clz32(sizeByte) - 23; // EBML vint: leading zero bits give the length
    if (sizeLength < 1 || sizeLength > 8) continue;
    let size = sizeByte & (0xff >> sizeLength);
    for (let k = 1; k < sizeLength; k++) size = size * 256 + (head[i + 2 + k] ?? 0);
    const start = i + 2 + sizeLength;
    const docType = ascii(head, start, start + Math.min(size, 16)).replace(/\0+$/, '');
    if (docType === 'webm') return video('webm', 'video/webm');
    if (docType === 'matroska') return video('mkv', 'video/x-matroska');
    return UNKNOWN;
  }
  return UNKNOWN;
}

const HEIC_BRANDS: Record<string, string> = {
  heic: 'image/heic',
  heix: 'image/heic',
  heim: 'image/heic',
  heis: 'image/heic',
  hevc: 'image/heic-sequence',
  hevx: 'image/heic-sequence',
};
// mif1/msf1 only say "some HEIF": the image codec comes from the other brands.
const HEIF_GENERIC_BRANDS: Record<string, string> = { mif1: 'image/heif', msf1: 'image/heif-sequence' };
const AVIF_BRANDS = new Set(['avif', 'avis']);
const MP4_BRANDS = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9',
  'mp41', 'mp42', 'mp71', 'avc1', 'avc2', 'hvc1', 'hev1', 'av01',
  'M4V ', 'M4VH', 'M4VP', 'dash', 'msdh', 'msix', 'mmp4', 'MSNV', 'XAVC', 'F4V ', 'f4v ',
  'NDAS', 'NDSC', 'NDSH', 'NDSM', 'NDSP', 'NDSS', 'NDXC', 'NDXH', 'NDXM', 'NDXP', 'NDXS',
]);
// ISO-BMFF files that list isom among their brands yet hold no video: audio-only MP4s and Canon CR3 raws.
const NOT_VIDEO_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ', 'F4B ', 'crx ']);
const QUICKTIME_LEADING_ATOMS = new Set(['moov', 'mdat', 'wide', 'pnot']);

/** ISO-BMFF (HEIF, AVIF, MP4, MOV): the major brand decides, then the compatible brands in order. */
function sniffIsoBmff(head: Buffer): Sniffed {
  const major = ascii(head, 8, 12);
  const boxEnd = Math.min(head.length, Math.max(16, head.readUInt32BE(0)));
  const compatible: string[] = [];
  for (let i = 16; i + 4 <= boxEnd; i += 4) compatible.push(ascii(head, i, i + 4));

  if (AVIF_BRANDS.has(major)) return image('avif', 'image/avif');
  const heic = HEIC_BRANDS[major];
  if (heic) return image('heic', heic);
  const generic = HEIF_GENERIC_BRANDS[major];
  if (generic) {
    if (compatible.some((brand) => AVIF_BRANDS.has(brand))) return image('avif', 'image/avif');
    return image('heic', compatible.map((brand) => HEIC_BRANDS[brand]).find(Boolean) ?? generic);
  }
  if (NOT_VIDEO_BRANDS.has(major)) return UNKNOWN;
  if (major === 'qt  ') return video('mov', 'video/quicktime');
  if (MP4_BRANDS.has(major)) return video('mp4', 'video/mp4');

  for (const brand of compatible) {
    if (AVIF_BRANDS.has(brand)) return image('avif', 'image/avif');
    const compatibleHeic = HEIC_BRANDS[brand];
    if (compatibleHeic) return image('heic', compatibleHeic);
    if (brand === 'qt  ') return video('mov', 'video/quicktime');
    if (MP4_BRANDS.has(brand)) return video('mp4', 'video/mp4');
  }
  return UNKNOWN;
}

/** PK\3\4 is a local file header; PK\5\6 an empty archive; PK\7\8 a spanned archive. */
function isZip(head: Buffer): boolean {
  if (head[0] !== 0x50 || head[1] !== 0x4b) return false;
  const pair = `${head[2]},${head[3]}`;
  return pair === '3,4' || pair === '5,6' || pair === '7,8';
}

/** "ustar" at 257 marks POSIX/GNU tar; the header checksum guards against a chance match. */
function isTar(head: Buffer): boolean {
  if (head.length < 512 || ascii(head, 257, 262) !== 'ustar') return false;
  const stored = parseInt(ascii(head, 148, 156).replace(/[\0 ]/g, ''), 8);
  if (!Number.isFinite(stored)) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : (head[i] ?? 0);
  return sum === stored;
}

function isTiff(head: Buffer): boolean {
  return (
    startsWith(head, [0x49, 0x49, 0x2a, 0x00]) ||
    startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]) ||
    startsWith(head, [0x49, 0x49, 0x2b, 0x00]) || // BigTIFF
    startsWith(head, [0x4d, 0x4d, 0x00, 0x2b])
  );
}

const BMP_DIB_HEADER_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

/** "BM" alone is too weak a signature, so the DIB header size and plane count must also be plausible. */
function isBmp(head: Buffer): boolean {
  if (head.length < 28 || ascii(head, 0, 2) !== 'BM') return false;
  const dibSize = head.readUInt32LE(14);
  if (!BMP_DIB_HEADER_SIZES.has(dibSize)) return false;
  const planes = dibSize === 12 ? head.readUInt16LE(22) : head.readUInt16LE(26);
  return planes === 1;
}

function startsWith(head: Buffer, bytes: number[]): boolean {
  return head.length >= bytes.length && bytes.every((byte, i) => head[i] === byte);
}

function ascii(head: Buffer, start: number, end: number): string {
  return head.toString('latin1', start, Math.min(end, head.length));
}

/** The leading bytes of a file on disk, as much as sniffing needs. */
export async function sniffFile(filePath: string): Promise<Sniffed> {
  const handle = await open(filePath, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return sniff(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
