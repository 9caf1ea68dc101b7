import type { UploadCounts } from './use-dataset-upload';
import { etaSeconds, formatEta, formatMegabytes, formatRate, uploadRate } from './upload-plan';

/** The upload as it goes: a bar, files and megabytes sent of the total, the rate and the time left. */
export function UploadProgress({ counts }: { counts: UploadCounts }) {
  const figures = { bytesDone: counts.bytesThisAttempt, bytesTotal: counts.bytesThisAttempt + counts.bytesTotal - counts.bytesDone, elapsedMs: counts.elapsedMs };
  return (
    <div className="stack upload-progress" style={{ gap: '0.3rem' }}>
      <progress max={counts.bytesTotal || 1} value={counts.bytesDone} aria-label="Upload progress" />
      <p className="muted" style={{ margin: 0 }} aria-live="polite">
        {counts.filesDone} of {counts.filesTotal} files · {formatMegabytes(counts.bytesDone)} of {formatMegabytes(counts.bytesTotal)} ·{' '}
        {formatRate(uploadRate(figures))} · {formatEta(etaSeconds(figures))} left
      </p>
    </div>
  );
}
