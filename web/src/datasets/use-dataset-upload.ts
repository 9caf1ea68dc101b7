import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { createEmptyDataset, discardDataset, openUploadTransaction, processUploadedFiles, uploadBatch } from './upload-api';
import { planBatches, totalBytes } from './upload-plan';

export interface UploadCounts {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** Bytes sent since this attempt began and how long ago it began: the rate counts this attempt only. */
  bytesThisAttempt: number;
  elapsedMs: number;
}

export type UploadState =
  | { phase: 'idle' }
  | { phase: 'uploading'; counts: UploadCounts }
  | { phase: 'processing'; counts: UploadCounts }
  | { phase: 'cancelled'; counts: UploadCounts }
  | { phase: 'failed'; counts: UploadCounts | null; error: unknown };

/** Where a dataset's creation stands, so a retry goes on from the first batch the server did not take. */
interface Progress {
  datasetId?: string;
  transId?: number;
  files?: readonly File[];
  batchesDone: number;
  processed: boolean;
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * Creates a dataset from local files: the empty dataset, one upload transaction, the batches, then processing.
 * Cancel aborts the request in flight; start() again resumes with the same files, or opens a new transaction for others.
 */
export function useDatasetUpload() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const progress = useRef<Progress>({ batchesDone: 0, processed: false });
  const controller = useRef<AbortController | null>(null);

  async function start(name: string, files: readonly File[]): Promise<string | null> {
    const p = progress.current;
    if (p.files !== files) Object.assign(p, { files, transId: undefined, batchesDone: 0 });
    const abort = new AbortController();
    controller.current = abort;
    const batches = planBatches(files);
    const sent = batches.slice(0, p.batchesDone).flat();
    const startedAt = performance.now();
    const counts: UploadCounts = {
      filesDone: sent.length,
      filesTotal: files.length,
      bytesDone: totalBytes(sent),
      bytesTotal: totalBytes(files),
      bytesThisAttempt: 0,
      elapsedMs: 0,
    };
    setState({ phase: 'uploading', counts });
    try {
      p.datasetId ??= await createEmptyDataset(name);
      void queryClient.invalidateQueries({ queryKey: ['datasets'] });
      p.transId ??= await openUploadTransaction(p.datasetId);
      for (const batch of batches.slice(p.batchesDone)) {
        if (abort.signal.aborted) throw new DOMException('Upload aborted', 'AbortError');
        const batchBytes = totalBytes(batch);
        const before = { ...counts };
        await uploadBatch(p.datasetId, p.transId, batch, (loaded, total) => {
          // The request also carries the form's boundaries and headers: its share of the files' bytes is what was sent.
          const bytes = total > 0 ? Math.min(batchBytes, (loaded / total) * batchBytes) : 0;
          counts.bytesDone = before.bytesDone + bytes;
          counts.bytesThisAttempt = before.bytesThisAttempt + bytes;
          counts.elapsedMs = performance.now() - startedAt;
          setState({ phase: 'uploading', counts: { ...counts } });
        }, abort.signal);
        p.batchesDone += 1;
        Object.assign(counts, {
          filesDone: before.filesDone + batch.length,
          bytesDone: before.bytesDone + batchBytes,
          bytesThisAttempt: before.bytesThisAttempt + batchBytes,
          elapsedMs: performance.now() - startedAt,
        });
        setState({ phase: 'uploading', counts: { ...counts } });
      }
      setState({ phase: 'processing', counts: { ...counts } });
      await processUploadedFiles(p.datasetId, p.transId);
      p.processed = true;
      await queryClient.invalidateQueries({ queryKey: ['datasets'] });
      return p.datasetId;
    } catch (error) {
      setState(isAbort(error) ? { phase: 'cancelled', counts: { ...counts } } : { phase: 'failed', counts: { ...counts }, error });
      return null;
    } finally {
      controller.current = null;
    }
  }

  function cancel() {
    controller.current?.abort();
  }

  /** The user closed the dialog: a dataset created here but never processed is removed, not left empty and INDEXING. */
  async function discard() {
    controller.current?.abort();
    const { datasetId, processed } = progress.current;
    progress.current = { batchesDone: 0, processed: false };
    if (datasetId && !processed) {
      await discardDataset(datasetId).catch(() => undefined);
      await queryClient.invalidateQueries({ queryKey: ['datasets'] });
    }
  }

  return { state, start, cancel, discard, datasetCreated: () => progress.current.datasetId !== undefined };
}
