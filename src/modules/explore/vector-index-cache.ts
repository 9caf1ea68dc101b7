import type { BlobStore } from '../../adapters/blobs/blob-store.js';
import { VectorIndex } from '../../adapters/vectors/usearch-index.js';

/**
 * Opened ANN indexes by blob hash (a version's index never changes, so no invalidation), least recently
 * used dropped first. Each is memory-mapped, not read: a search touches a few thousand items' pages, so
 * opening a million-item index (~0.6-1.1 GB) costs milliseconds and the kernel pages it as memory allows.
 * A blob is immutable and content-addressed; a mapping outlives the file's removal.
 */
export class VectorIndexCache {
  private readonly open = new Map<string, Promise<VectorIndex>>();

  constructor(private readonly capacity = 4) {}

  get(hash: string, dimensions: number, blobs: BlobStore): Promise<VectorIndex> {
    let index = this.open.get(hash);
    if (index) {
      this.open.delete(hash);
    } else {
      index = this.load(hash, dimensions, blobs);
      index.catch(() => this.open.delete(hash));
    }
    this.open.set(hash, index);
    while (this.open.size > this.capacity) this.open.delete(this.open.keys().next().value!);
    return index;
  }

  private async load(hash: string, dimensions: number, blobs: BlobStore): Promise<VectorIndex> {
    const local = await blobs.localFile(hash);
    try {
      return VectorIndex.view(local.path, dimensions);
    } finally {
      await local.release();
    }
  }
}
