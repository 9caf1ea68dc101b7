/** What the upload needs of a chosen file; a browser File fits it. */
export interface PlannedFile {
  name: string;
  type: string;
  size: number;
}

const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp', 'gif', 'bmp', 'tif', 'tiff', 'heic', 'heif', 'avif'];
const VIDEO_EXTENSIONS = ['mp4', 'mov', 'webm', 'mkv', 'avi'];
const MEDIA_EXTENSIONS = new Set([...IMAGE_EXTENSIONS, ...VIDEO_EXTENSIONS]);

/** The file input's `accept`, so the picker offers the same files the filter keeps. */
export const MEDIA_ACCEPT = ['image/*', 'video/*', ...[...MEDIA_EXTENSIONS].map((e) => `.${e}`)].join(',');

/** The API requests about 50 files per upload request. */
export const BATCH_FILES = 50;
/** A batch also stops at 1 GB, so a folder of large videos is not one giant request to redo after a failure. */
export const BATCH_BYTES = 1_000_000_000;

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * Images and videos the server can take: by extension, or by MIME type for a name without one (SVG is no photo).
 * Hidden files (.DS_Store, ._photo.jpg from macOS) are never media.
 */
export function isMedia(file: PlannedFile): boolean {
  if (file.name.startsWith('.')) return false;
  const extension = extensionOf(file.name);
  if (extension) return MEDIA_EXTENSIONS.has(extension);
  return (file.type.startsWith('image/') && file.type !== 'image/svg+xml') || file.type.startsWith('video/');
}

/** The chosen files split into the media to upload and a count of the rest. */
export function selectMedia<F extends PlannedFile>(files: readonly F[]): { media: F[]; skipped: number } {
  const media = files.filter(isMedia);
  return { media, skipped: files.length - media.length };
}

/** Upload batches in order: at most `maxFiles` files and, unless one file alone is larger, at most `maxBytes` bytes each. */
export function planBatches<F extends PlannedFile>(files: readonly F[], maxFiles = BATCH_FILES, maxBytes = BATCH_BYTES): F[][] {
  const batches: F[][] = [];
  let batch: F[] = [];
  let bytes = 0;
  for (const file of files) {
    if (batch.length > 0 && (batch.length >= maxFiles || bytes + file.size > maxBytes)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(file);
    bytes += file.size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

export function totalBytes(files: readonly PlannedFile[]): number {
  return files.reduce((sum, f) => sum + f.size, 0);
}

export interface UploadFigures {
  /** Bytes sent of the whole upload. */
  bytesDone: number;
  bytesTotal: number;
  /** Milliseconds since the upload began. */
  elapsedMs: number;
}

/** Bytes a second so far, or null before there is anything to measure. */
export function uploadRate({ bytesDone, elapsedMs }: UploadFigures): number | null {
  return bytesDone > 0 && elapsedMs > 0 ? (bytesDone * 1000) / elapsedMs : null;
}

/** Seconds left at the rate so far, or null while the rate is unknown. */
export function etaSeconds(figures: UploadFigures): number | null {
  const rate = uploadRate(figures);
  if (rate === null) return null;
  return Math.max(0, Math.ceil((figures.bytesTotal - figures.bytesDone) / rate));
}

/** Megabytes (10^6 bytes, as disks and networks count them) with one decimal: "12.3 MB". */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

export function formatRate(bytesPerSecond: number | null): string {
  return bytesPerSecond === null ? '– MB/s' : `${(bytesPerSecond / 1_000_000).toFixed(1)} MB/s`;
}

/** A short duration: "45 s", "3 min 05 s", "2 h 07 min"; a dash while unknown. */
export function formatEta(seconds: number | null): string {
  if (seconds === null) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)} min ${pad(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${pad(Math.floor((s % 3600) / 60))} min`;
}
