import { api, postForm, unwrap } from '../api/client';

/** The four steps of creating a dataset from local files, as the API names them. */

export async function createEmptyDataset(name: string): Promise<string> {
  const created = await unwrap(api.GET('/api/v1/ingestion/new_dataset', { params: { query: { dataset_name: name } } }));
  return created.dataset_id;
}

export async function openUploadTransaction(datasetId: string): Promise<number> {
  const opened = await unwrap(api.GET('/api/v1/ingestion/{dataset_id}/data_files', { params: { path: { dataset_id: datasetId } } }));
  return opened.trans_id;
}

/** One batch as one multipart request (field `files`); the server keeps all of it or none. */
export function uploadBatch(datasetId: string, transId: number, files: readonly File[], onProgress: (loaded: number, total: number) => void, signal: AbortSignal) {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  const url = `/api/v1/ingestion/${encodeURIComponent(datasetId)}/data_files/${transId}`;
  return postForm(url, form, ({ loaded, total }) => onProgress(loaded, total), signal);
}

export function processUploadedFiles(datasetId: string, transId: number) {
  return unwrap(api.POST('/api/v1/ingestion/{dataset_id}/process_files/{trans_id}', { params: { path: { dataset_id: datasetId, trans_id: transId } } }));
}

/** Drops a dataset whose creation the user gave up before its files were processed. */
export function discardDataset(datasetId: string) {
  return unwrap(api.DELETE('/api/v1/dataset/{dataset_id}', { params: { path: { dataset_id: datasetId } } }));
}
