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
  /** Bytes of the request in flight that the server has read; counted as done once it accepts them. */
  private inFlight = 0;
  private lastEmit = 0;
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

  /** Another try of a request starts: what the last try sent no longer counts. */
  restart(): void {
    this.inFlight = 0;
    // The first bytes of each request are reported at once: the caller sees the batch leave.
    this.lastEmit = 0;
  }

  /** Bytes of the current request went out; reported at most five times a second. */
  sending(bytes: number, cap: number): void {
    this.inFlight = Math.min(cap, this.inFlight + bytes);
    if (Date.now() - this.lastEmit >= 200) this.emit();
  }

  add(files: number, bytes: number): void {
    this.inFlight = 0;
    this.filesDone += files;
    this.bytesDone += bytes;
    this.sentNow += bytes;
    this.emit();
  }

  emit(): void {
    this.lastEmit = Date.now();
    this.report?.(this.snapshot());
  }

  snapshot(): UploadProgress {
    const seconds = (Date.now() - this.started) / 1000;
    const bytesDone = this.bytesDone + this.inFlight;
    const rate = seconds > 0 ? (this.sentNow + this.inFlight) / seconds : 0;
    const left = this.bytesTotal - bytesDone;
    return {
      filesDone: this.filesDone,
      filesTotal: this.filesTotal,
      bytesDone,
      bytesTotal: this.bytesTotal,
      skipped: this.skipped,
      rateBytesPerSecond: Math.round(rate),
      etaSeconds: left <= 0 ? 0 : rate > 0 ? Math.ceil(left / rate) : null,
    };
  }
}
