import exifReader from 'exif-reader';

export interface ImageExif {
  captured_at?: string;
  make?: string;
  model?: string;
  orientation?: number;
  gps?: { latitude: number; longitude: number; altitude?: number };
}

type RawExif = ReturnType<typeof exifReader>;

/** The fields Loupe keeps from an EXIF block (as sharp's `metadata().exif` returns it); null when there are none. */
export function parseExif(block: Buffer | undefined): ImageExif | null {
  if (!block || block.length === 0) return null;
  let raw: RawExif;
  try {
    raw = exifReader(block);
  } catch {
    return null; // a broken EXIF block costs the image its metadata, never its analysis
  }
  const exif: ImageExif = {};
  const capturedAt = capturedAtOf(raw);
  if (capturedAt) exif.captured_at = capturedAt;
  const make = text(raw.Image?.Make);
  if (make) exif.make = make;
  const model = text(raw.Image?.Model);
  if (model) exif.model = model;
  const orientation = raw.Image?.Orientation;
  if (typeof orientation === 'number' && Number.isInteger(orientation) && orientation >= 1 && orientation <= 8) {
    exif.orientation = orientation;
  }
  const gps = gpsOf(raw.GPSInfo);
  if (gps) exif.gps = gps;
  return Object.keys(exif).length > 0 ? exif : null;
}

/**
 * EXIF stores wall-clock time; with an OffsetTimeOriginal we convert to true UTC, without one
 * the wall-clock time is reported as if it were UTC, because the zone is unknowable.
 */
function capturedAtOf(raw: RawExif): string | undefined {
  const taken = raw.Photo?.DateTimeOriginal ?? raw.Photo?.DateTimeDigitized;
  if (!(taken instanceof Date) || Number.isNaN(taken.getTime()) || taken.getUTCFullYear() < 1800) return undefined;
  const offsetMinutes = parseOffset(text(raw.Photo?.OffsetTimeOriginal));
  return new Date(taken.getTime() - offsetMinutes * 60_000).toISOString();
}

function parseOffset(offset: string | undefined): number {
  const match = offset?.match(/^([+-])(\d{2}):(\d{2})$/);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

function gpsOf(gps: RawExif['GPSInfo']): ImageExif['gps'] | undefined {
  if (!gps) return undefined;
  const latitude = degrees(gps.GPSLatitude, text(gps.GPSLatitudeRef), 'S');
  const longitude = degrees(gps.GPSLongitude, text(gps.GPSLongitudeRef), 'W');
  if (latitude === undefined || longitude === undefined) return undefined;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  const result: NonNullable<ImageExif['gps']> = { latitude, longitude };
  const altitude = gps.GPSAltitude;
  if (typeof altitude === 'number' && Number.isFinite(altitude)) {
    result.altitude = byteValue(gps.GPSAltitudeRef) === 1 ? -altitude : altitude;
  }
  return result;
}

/** [degrees, minutes, seconds] plus a hemisphere letter → signed decimal degrees. */
function degrees(dms: unknown, ref: string | undefined, negativeRef: string): number | undefined {
  if (!Array.isArray(dms) || dms.length === 0) return undefined;
  const [d = 0, m = 0, s = 0] = dms as unknown[];
  if (![d, m, s].every((part) => typeof part === 'number' && Number.isFinite(part))) return undefined;
  const value = (d as number) + (m as number) / 60 + (s as number) / 3600;
  return ref?.toUpperCase() === negativeRef ? -value : value;
}

function byteValue(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (Buffer.isBuffer(value)) return value[0];
  return undefined;
}

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.replace(/\0/g, '').trim();
  return trimmed.length > 0 ? trimmed : undefined;
}
