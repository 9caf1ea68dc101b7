export interface UploadProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** Files the walk left out (not media). */
  skipped: number;
  /** Over this session's sending (files already sent before a resume do not count). */
  rateBytesPerSecond: number;
  etaSeconds: number | null;
}

/** Counts what an upload has sent and turns it into rate and ETA. */
export class ProgressMeter {
  private readonly started = Date.now();
  private sentNow = 0;
  filesDone: number;
  bytesDone: number;

  constructor(
    readonly filesTotal: number,
    readonly bytesTotal: number,
    readonly skipped: number,
    already: { files: number; bytes: number } = { files: 0, bytes: 0 },
    private readonly report?: (p: UploadProgress) => void,
  ) {
    this.filesDone = already.files;
    this.bytesDone = already.bytes;
  }

  add(files: number, bytes: number): void {
    this.filesDone += files;
    this.bytesDone += bytes;
    this.sentNow += bytes;
    this.emit();
  }

  emit(): void {
    this.report?.(this.snapshot());
  }

  snapshot(): UploadProgress {
    const seconds = (Date.now() - this.started) / 1000;
    const rate = seconds > 0 ? this.sentNow / seconds : 0;
    const left = this.bytesTotal - this.bytesDone;
    return {
      filesDone: this.filesDone,
      filesTotal: this.filesTotal,
      bytesDone: this.bytesDone,
      bytesTotal: this.bytesTotal,
      skipped: this.skipped,
      rateBytesPerSecond: Math.round(rate),
      etaSeconds: left <= 0 ? 0 : rate > 0 ? Math.ceil(left / rate) : null,
    };
  }
}
