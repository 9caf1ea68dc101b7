import fs from 'node:fs/promises';
import path from 'node:path';
import { sniffFile } from '../../src/adapters/media/sniff.js';

export interface MediaFile {
  path: string;
  /** The path below the walked folder, with forward slashes: the key a resumed upload remembers. */
  relative: string;
  size: number;
}

export interface MediaWalk {
  files: MediaFile[];
  skipped: Array<{ path: string; reason: string }>;
}

// Names the server's media types go by; the content must agree (the server sniffs it the same way).
const MEDIA_EXTENSIONS = new Set([
  'jpg', 'jpeg', 'jpe', 'png', 'gif', 'webp', 'bmp', 'tif', 'tiff', 'heic', 'heif', 'avif',
  'mp4', 'm4v', 'mov', 'qt', 'webm', 'mkv', 'avi',
]);

async function judge(file: string, size: number): Promise<string | null> {
  const extension = path.extname(file).slice(1).toLowerCase();
  if (!MEDIA_EXTENSIONS.has(extension)) return extension ? `.${extension} is not an image or video extension` : 'no file extension';
  if (size === 0) return 'empty file';
  const sniffed = await sniffFile(file);
  if (sniffed.kind === 'archive') return `${sniffed.format} archive (add it with addMediaFromArchive)`;
  if (sniffed.kind !== 'image' && sniffed.kind !== 'video') return 'content is not an image or video';
  return null;
}

/** Walks `dir` recursively, in name order: image and video files (by extension and by their leading bytes) and what was skipped, with why. */
export async function walkMedia(dir: string): Promise<MediaWalk> {
  const root = path.resolve(dir);
  const walk: MediaWalk = { files: [], skipped: [] };
  const visit = async (folder: string): Promise<void> => {
    const entries = (await fs.readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        await visit(full);
        continue;
      }
      const stat = await fs.stat(full).catch(() => null);
      if (!stat?.isFile()) {
        walk.skipped.push({ path: full, reason: stat ? 'not a regular file' : 'unreadable or a broken link' });
        continue;
      }
      const reason = await judge(full, stat.size);
      if (reason) walk.skipped.push({ path: full, reason });
      else walk.files.push({ path: full, relative: path.relative(root, full).split(path.sep).join('/'), size: stat.size });
    }
  };
  await visit(root);
  return walk;
}

/** A folder (walked) or a list of files and folders; a listed file is judged like a walked one, keyed by its path from here. */
export async function collectMedia(folderOrFiles: string | string[]): Promise<MediaWalk> {
  if (typeof folderOrFiles === 'string') return walkMedia(folderOrFiles);
  const all: MediaWalk = { files: [], skipped: [] };
  for (const item of folderOrFiles) {
    const stat = await fs.stat(item).catch(() => null);
    if (stat?.isDirectory()) {
      const walked = await walkMedia(item);
      const base = path.relative(process.cwd(), path.resolve(item)).split(path.sep).join('/');
      all.files.push(...walked.files.map((f) => ({ ...f, relative: base ? `${base}/${f.relative}` : f.relative })));
      all.skipped.push(...walked.skipped);
      continue;
    }
    const reason = !stat ? 'no such file' : !stat.isFile() ? 'not a regular file' : await judge(item, stat.size);
    if (reason) all.skipped.push({ path: item, reason });
    else all.files.push({ path: path.resolve(item), relative: path.relative(process.cwd(), path.resolve(item)).split(path.sep).join('/'), size: stat!.size });
  }
  return all;
}
