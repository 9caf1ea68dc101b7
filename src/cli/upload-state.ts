import fs from 'node:fs';
import path from 'node:path';
import type { UploadState } from '../../sdk/src/index.js';
import { readIfExists, writePrivateJson } from './config.js';
import { UsageError } from './exit-codes.js';

/** An upload of `datasets create` that has not reached process_files: enough to resume it with `datasets resume`. */
export interface SavedUpload {
  name: string;
  /** Absolute path of the folder being uploaded. */
  folder: string;
  state: UploadState;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One JSON file per dataset (`<dir>/<dataset_id>.json`), written after every accepted batch, removed once processing starts. */
export class UploadStateFiles {
  constructor(readonly dir: string) {}

  path(datasetId: string): string {
    if (!UUID.test(datasetId)) throw new UsageError(`${datasetId} is not a dataset id`);
    return path.join(this.dir, `${datasetId.toLowerCase()}.json`);
  }

  load(datasetId: string): SavedUpload | null {
    const file = this.path(datasetId);
    const text = readIfExists(file);
    if (text === null) return null;
    const saved = JSON.parse(text) as SavedUpload;
    if (typeof saved?.folder !== 'string' || saved.state?.datasetId !== datasetId || !Array.isArray(saved.state.sent)) {
      throw new Error(`${file} is not an upload state file of dataset ${datasetId}`);
    }
    return saved;
  }

  save(saved: SavedUpload): void {
    writePrivateJson(this.path(saved.state.datasetId), saved);
  }

  remove(datasetId: string): void {
    fs.rmSync(this.path(datasetId), { force: true });
  }

  /** The uploads waiting to be resumed, for `datasets resume` without an id. */
  list(): SavedUpload[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => n.endsWith('.json') && UUID.test(n.slice(0, -5)))
      .flatMap((n) => {
        try {
          const saved = this.load(n.slice(0, -5));
          return saved ? [saved] : [];
        } catch {
          return [];
        }
      });
  }
}
