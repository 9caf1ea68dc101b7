/** Pure formatting of a media item's facts for the media page. */

const EXIF_TERMS: Record<string, string> = {
  captured_at: 'Captured',
  make: 'Camera make',
  model: 'Camera model',
  orientation: 'Orientation',
  gps: 'GPS position',
};

export interface Fact {
  term: string;
  value: string;
}

/** 1536 → "1.5 KB"; binary units, one decimal from KB on. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

function round(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}

function gpsText(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { latitude, longitude, altitude } = value as { latitude?: unknown; longitude?: unknown; altitude?: unknown };
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return undefined;
  const position = `${round(latitude, 6)}, ${round(longitude, 6)}`;
  return typeof altitude === 'number' ? `${position} (${round(altitude, 1)} m)` : position;
}

/** Any value of a JSON record as one line of text (custom fields, unknown EXIF entries). */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : round(value, 4);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** "shutter_speed" → "Shutter speed", for keys without a term of their own. */
function termOf(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The EXIF the API kept, as term/value pairs in a fixed order (the known terms first); [] for none. */
export function exifFacts(exif: Record<string, unknown> | null): Fact[] {
  if (!exif) return [];
  const known = Object.keys(EXIF_TERMS).filter((key) => key in exif);
  const others = Object.keys(exif).filter((key) => !(key in EXIF_TERMS)).sort();
  return [...known, ...others].map((key) => {
    const value = exif[key];
    const text = key === 'gps' ? (gpsText(value) ?? valueText(value)) : key === 'captured_at' && typeof value === 'string' ? value.replace('T', ' ').replace(/\.000Z$|Z$/, ' UTC') : valueText(value);
    return { term: EXIF_TERMS[key] ?? termOf(key), value: text };
  });
}

/** A frame's position in its video: 75.5 → "1:15.5". */
export function formatTimestamp(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds - minutes * 60;
  const secondsText = round(rest, 1);
  return `${minutes}:${rest < 10 ? '0' : ''}${secondsText}`;
}
