/** An object or a folder in object storage; a key that is '' or ends with '/' is a folder. */
export interface S3Location {
  bucket: string;
  key: string;
}

/** A one-line reason that add_media can show: bad URI, missing bucket or manifest, unreadable manifest, access denied. */
export class S3SourceError extends Error {
  override name = 'S3SourceError';
  /** Refused credentials, missing credentials or access denied: the URI may be fine and hold media. */
  readonly access: boolean;

  constructor(message: string, options?: ErrorOptions & { access?: boolean }) {
    super(message, options);
    this.access = options?.access ?? false;
  }
}

// S3's bucket rules (3–63 chars of a-z 0-9 . -, letter or digit at both ends), plus '_' that S3-compatible servers allow.
const BUCKET = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const MAX_KEY_BYTES = 1024;

/** `s3://bucket`, `s3://bucket/prefix/` or `s3://bucket/key`; null for anything else. Keys are taken verbatim (no %-decoding). */
export function parseS3Uri(uri: string): S3Location | null {
  if (typeof uri !== 'string') return null;
  const match = /^s3:\/\/([^/]*)(?:\/(.*))?$/is.exec(uri.trim());
  if (!match) return null;
  const bucket = match[1] ?? '';
  const key = match[2] ?? '';
  if (!BUCKET.test(bucket) || /\.\.|\.-|-\./.test(bucket)) return null;
  if (CONTROL_CHARS.test(key) || Buffer.byteLength(key) > MAX_KEY_BYTES) return null;
  return { bucket, key };
}

export const formatS3Uri = (location: S3Location): string => `s3://${location.bucket}/${location.key}`;

export const isFolderKey = (key: string): boolean => key === '' || key.endsWith('/');

export const fileNameOf = (key: string): string => key.slice(key.lastIndexOf('/') + 1);

const extensionOf = (key: string): string => {
  const name = fileNameOf(key);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

const MEDIA_EXTENSIONS = new Set(
  'jpg jpeg png webp avif tif tiff gif bmp heic heif mp4 mov m4v webm mkv avi'.split(' '),
);

/** A pre-filter for folder listings by file extension; the bytes decide the real type later. */
export const looksLikeMedia = (key: string): boolean => MEDIA_EXTENSIONS.has(extensionOf(key));

export type ManifestKind = 'csv' | 'parquet' | 'txt';

export function manifestKind(key: string): ManifestKind | null {
  const extension = extensionOf(key);
  return extension === 'csv' || extension === 'parquet' || extension === 'txt' ? extension : null;
}

export const looksLikeS3Uri = (value: string): boolean => /^s3:\/\//i.test(value);

/**
 * A manifest entry as a location: an s3:// URI as is, `/key` from the manifest's bucket root, anything else
 * relative to the manifest's folder ('.' and '..' segments resolved).
 */
export function resolveManifestEntry(entry: string, manifest: S3Location): S3Location {
  if (looksLikeS3Uri(entry)) {
    const location = parseS3Uri(entry);
    if (!location) throw new S3SourceError(`manifest ${formatS3Uri(manifest)} lists an invalid S3 URI: ${clip(entry)}`);
    return location;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
    throw new S3SourceError(`manifest ${formatS3Uri(manifest)} lists a URI that is not s3://: ${clip(entry)}`);
  }
  const segments = entry.startsWith('/') ? [] : manifest.key.split('/').slice(0, -1);
  for (const segment of entry.replace(/^\/+/, '').split('/')) {
    if (segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const key = segments.join('/');
  if (CONTROL_CHARS.test(key) || Buffer.byteLength(key) > MAX_KEY_BYTES) {
    throw new S3SourceError(`manifest ${formatS3Uri(manifest)} lists an invalid key: ${clip(entry)}`);
  }
  return { bucket: manifest.bucket, key };
}

export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

const clip = (text: string): string => JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);
