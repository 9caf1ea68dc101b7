import { ArchiveRefusedError, RATIO_FLOOR_BYTES, type ArchiveLimits } from './archive-types.js';

const TAR_BYTES_PER_ENTRY = 4096;

/** Bomb accounting for one archive: declared sizes as headers are read, then the real bytes, because headers lie. */
export class ArchiveBudget {
  private entries = 0;
  private declaredTotal = 0;
  private flowedTotal = 0;

  constructor(readonly limits: ArchiveLimits) {}

  countEntries(count = 1): void {
    this.entries += count;
    if (this.entries > this.limits.maxEntries) refuse(`archive has more than ${this.limits.maxEntries} entries`);
  }

  /** `compressedSize` only where the format has one per entry (zip). */
  declare(name: string, size: number, compressedSize?: number): void {
    if (!Number.isSafeInteger(size) || size < 0) refuse(`entry ${quote(name)} declares an invalid size`);
    if (size > this.limits.maxEntryBytes) refuse(`entry ${quote(name)} is larger than ${this.limits.maxEntryBytes} bytes`);
    this.declaredTotal += size;
    if (this.declaredTotal > this.limits.maxTotalBytes) refuse(`archive expands to more than ${this.limits.maxTotalBytes} bytes`);
    if (compressedSize !== undefined) this.checkRatio(`entry ${quote(name)}`, size, compressedSize);
  }

  checkRatio(what: string, uncompressed: number, compressed: number): void {
    if (uncompressed <= RATIO_FLOOR_BYTES || uncompressed <= compressed * this.limits.maxCompressionRatio) return;
    refuse(`${what} expands more than ${this.limits.maxCompressionRatio} times (a compression bomb)`);
  }

  /** A tar stream is its files plus a header and padding per entry (a long name adds a pax record). */
  checkExpandedTar(bytes: number): void {
    const overhead = TAR_BYTES_PER_ENTRY * this.limits.maxEntries + RATIO_FLOOR_BYTES;
    if (bytes > this.limits.maxTotalBytes + overhead) refuse(`archive expands to more than ${this.limits.maxTotalBytes} bytes`);
  }

  /** Counts one entry's real bytes; call with each chunk, then `finish` when the entry's data ends. */
  meter(name: string, declaredSize: number): EntryMeter {
    let seen = 0;
    return {
      add: (bytes) => {
        seen += bytes;
        this.flowedTotal += bytes;
        if (seen > declaredSize) refuse(`entry ${quote(name)} holds more bytes than its header declares`);
        if (this.flowedTotal > this.limits.maxTotalBytes) refuse(`archive expands to more than ${this.limits.maxTotalBytes} bytes`);
      },
      finish: () => {
        if (seen !== declaredSize) refuse(`entry ${quote(name)} holds fewer bytes than its header declares`);
      },
    };
  }
}

export interface EntryMeter {
  add(bytes: number): void;
  finish(): void;
}

function refuse(reason: string): never {
  throw new ArchiveRefusedError(reason);
}

const quote = (name: string): string => JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name);
