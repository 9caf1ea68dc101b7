/** What to do with one entry name: extract it under `path`, skip it with a reason, or ignore a directory. */
export type PathVerdict = { path: string } | { skip: string } | { directory: true };

const METADATA_NAMES = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

/** Judges a name as stored in the archive; never touches the file system. */
export function judgeEntryPath(rawName: string): PathVerdict {
  if (rawName.includes('\0')) return { skip: 'NUL byte in path' };
  // A newline or an escape sequence in a file name forges lines in logs, CSV exports and terminals.
  if (/[\u0001-\u001f\u007f]/.test(rawName)) return { skip: 'control character in path' };
  const name = rawName.includes('\\') ? rawName.replace(/\\/g, '/') : rawName;
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return { skip: 'absolute path' };
  const segments = name.split('/');
  if (segments.includes('..')) return { skip: 'path escapes the archive (..)' };
  const kept = segments.filter((segment) => segment !== '' && segment !== '.');
  const last = kept[kept.length - 1];
  if (last === undefined || name.endsWith('/')) return { directory: true };
  if (kept[0] === '__MACOSX' || last.startsWith('._') || METADATA_NAMES.has(last)) return { skip: 'metadata file' };
  return { path: kept.join('/') };
}

/** The name to report for a skipped entry: printable, and short enough for a log line or a response. */
export function reportedPath(rawName: string): string {
  const printable = rawName.replace(/[\u0000-\u001f\u007f]/g, '?');
  return printable.length > 300 ? `${printable.slice(0, 300)}…` : printable;
}
