import fs from 'node:fs';
import path from 'node:path';
import type { Client } from 'openapi-fetch';
import { type LoupeOptions, Transport, unwrap } from './client.js';
import { exploreQuery } from './explore.js';
import { type DownloadOptions, type StartExportOptions, downloadExport, startExport } from './exports.js';
import { byOffset, byPageNumber } from './paging.js';
import { ProgressMeter, type UploadProgress } from './progress.js';
import { type NotificationStreamOptions, type StreamEvent, notificationStream } from './sse.js';
import type { Cluster, Dataset, EnrichmentModel, ExplorePage, ExploreQuery, ExportStatus, Me, Media, MediaDetail, Notification, Share, Snapshot, Task, TaskFilters, paths } from './types.js';
import { type CreateDatasetOptions, type UploadState, mediaForm, sendAddMedia, taskIdOf, uploadDataset } from './uploads.js';
import { type WaitOptions, waitOptionsOf, waitUntil } from './waiters.js';
import { collectMedia } from './walk.js';

type Wait = { wait?: boolean | WaitOptions };
export interface AddMediaOptions extends Wait {
  /** Reindex (re-cluster) automatically after the media is processed. */
  reindex?: boolean;
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
  /**
   * Most files per add_media request: the server's MAX_FILES_PER_REQUEST (default 500). A larger folder goes as
   * several requests, each its own MEDIA_ADDITION task, each awaited before the next (the dataset is READ ONLY meanwhile).
   */
  filesPerRequest?: number;
}
export type ExportOptions = StartExportOptions & DownloadOptions & { path: string; wait?: WaitOptions };

const enc = encodeURIComponent;

/** The Loupe API as methods: typed, signed, retried, paged, waited on. `api` is the raw typed client for anything else. */
export class Loupe {
  readonly api: Client<paths>;
  private readonly t: Transport;
  private readonly retries: number;

  constructor(options: LoupeOptions) {
    this.t = new Transport(options);
    this.api = this.t.api;
    this.retries = options.retries ?? 4;
  }

  me(): Promise<Me> {
    return unwrap(this.api.GET('/api/v1/auth/me'));
  }

  // datasets

  datasets(options: { pageSize?: number } = {}): AsyncIterableIterator<Dataset> {
    return byOffset(options.pageSize ?? 100, async (offset, limit) => {
      const items = await unwrap(this.api.GET('/api/v1/datasets', { params: { query: { offset, limit } } }));
      return { items, more: items.length === limit };
    });
  }

  dataset(id: string): Promise<Dataset> {
    return unwrap(this.api.GET('/api/v1/dataset/{dataset_id}', { params: { path: { dataset_id: id } } }));
  }

  /** Creates a dataset from a folder (walked recursively) or files, in batches, resumable through `state`/`onState`. */
  async createDataset(name: string, folderOrFiles: string | string[], options: CreateDatasetOptions & Wait = {}): Promise<Dataset> {
    const { datasetId } = await uploadDataset(this.t, name, folderOrFiles, options);
    const wait = waitOptionsOf(options.wait);
    return wait ? this.waitForDataset(datasetId, { signal: options.signal, ...wait }) : this.dataset(datasetId);
  }

  updateDataset(id: string, changes: { display_name?: string; description?: string }): Promise<Dataset> {
    return unwrap(this.api.PATCH('/api/v1/dataset/{dataset_id}', { params: { path: { dataset_id: id } }, body: changes }), 'PATCH');
  }

  async deleteDataset(id: string): Promise<void> {
    await unwrap(this.api.DELETE('/api/v1/dataset/{dataset_id}', { params: { path: { dataset_id: id } } }), 'DELETE');
  }

  share(id: string, userEmail: string, role: 'viewer' | 'editor' = 'viewer'): Promise<Share> {
    return this.t.json('PUT', `/api/v1/manage/${enc(id)}/invite`, { json: { grant_to_user_email: userEmail, role } });
  }

  async sharedWith(id: string): Promise<Share[]> {
    return (await unwrap(this.api.GET('/api/v1/manage/{dataset_id}/share', { params: { path: { dataset_id: id } } }))).users;
  }

  async unshare(id: string, userEmail: string): Promise<void> {
    await unwrap(this.api.DELETE('/api/v1/manage/{dataset_id}/share', { params: { path: { dataset_id: id }, query: { user_email: userEmail } } }), 'DELETE');
  }

  // adding media: each call is one MEDIA_ADDITION task, named by the 202's Location header

  async addMedia(id: string, folderOrFiles: string | string[], options: AddMediaOptions = {}): Promise<{ taskId: string | null; taskIds: string[]; dataset?: Dataset }> {
    const walk = await collectMedia(folderOrFiles);
    const perRequest = Math.max(1, options.filesPerRequest ?? 500);
    const meter = new ProgressMeter(walk.files.length, walk.files.reduce((n, f) => n + f.size, 0), walk.skipped.length, undefined, options.onProgress);
    const parts: (typeof walk.files)[] = [];
    for (let i = 0; i < Math.max(walk.files.length, 1); i += perRequest) parts.push(walk.files.slice(i, i + perRequest));
    const taskIds: string[] = [];
    for (const part of parts.slice(0, -1)) {
      // Every request but the last is awaited before the next: the dataset refuses another while its task runs.
      const taskId = await sendAddMedia(this.t, id, { files: { ...walk, files: part } }, { signal: options.signal, meter });
      if (!taskId) throw new Error('add_media answered without the Location of its task');
      taskIds.push(taskId);
      await this.waitForTask(taskId, { signal: options.signal });
    }
    const taskId = await sendAddMedia(this.t, id, { files: { ...walk, files: parts.at(-1)! } }, { ...options, meter });
    if (taskId) taskIds.push(taskId);
    return { ...(await this.afterAddMedia(id, taskId, options)), taskIds };
  }

  async addMediaFromArchive(id: string, archivePath: string, options: AddMediaOptions = {}): Promise<{ taskId: string | null; dataset?: Dataset }> {
    return this.afterAddMedia(id, await sendAddMedia(this.t, id, { archive: archivePath }, options), options);
  }

  async addMediaFromS3(id: string, s3Uri: string, options: Omit<AddMediaOptions, 'onProgress'> = {}): Promise<{ taskId: string | null; dataset?: Dataset }> {
    return this.afterAddMedia(id, await sendAddMedia(this.t, id, { s3Uri }, options), options);
  }

  private async afterAddMedia(id: string, taskId: string | null, options: AddMediaOptions): Promise<{ taskId: string | null; dataset?: Dataset }> {
    const wait = waitOptionsOf(options.wait);
    if (!wait) return { taskId };
    if (taskId) await this.waitForTask(taskId, { signal: options.signal, ...wait, until: undefined, failOn: undefined });
    // Without a reindex the dataset stops at PARTIAL INDEX; with one it goes on to READY.
    const until = wait.until ?? (options.reindex ? ['READY'] : ['READY', 'PARTIAL INDEX']);
    return { taskId, dataset: await this.waitForDataset(id, { signal: options.signal, ...wait, until }) };
  }

  async reindex(id: string, options: Wait = {}): Promise<{ taskId: string | null }> {
    const response = await this.t.send('POST', `/api/v1/dataset/${enc(id)}/reindex`);
    await response.body?.cancel().catch(() => {});
    const taskId = taskIdOf(response);
    const wait = waitOptionsOf(options.wait);
    if (wait) {
      if (taskId) await this.waitForTask(taskId, { ...wait, until: undefined, failOn: undefined });
      await this.waitForDataset(id, { ...wait, until: wait.until ?? ['READY'] });
    }
    return { taskId };
  }

  // waiters: never faster than once a second

  waitForDataset(id: string, options: WaitOptions = {}): Promise<Dataset> {
    return waitUntil({ path: `/api/v1/dataset/${id}`, read: () => this.dataset(id), state: (d) => d.status_new, detail: (d) => d.fatal_error_msg, until: ['READY'], failOn: ['ERROR'] }, options);
  }

  waitForTask(taskId: string, options: WaitOptions = {}): Promise<Task> {
    return waitUntil(
      { path: `/api/v1/tasks/${taskId}`, read: () => this.task(taskId), state: (t) => t.status, detail: (t) => t.error_message ?? t.status_message, until: ['COMPLETED'], failOn: ['FAILED', 'ABORTED'] },
      options,
    );
  }

  waitForExport(datasetId: string, exportTaskId: string, options: WaitOptions = {}): Promise<ExportStatus> {
    return waitUntil(
      {
        path: `/api/v1/dataset/${datasetId}/export_status`,
        read: () => unwrap(this.api.GET('/api/v1/dataset/{dataset_id}/export_status', { params: { path: { dataset_id: datasetId }, query: { export_task_id: exportTaskId } } })),
        state: (s) => s.status,
        detail: (s) => s.result_message,
        until: ['COMPLETED'],
        failOn: ['FAILED', 'REJECTED'],
      },
      options,
    );
  }

  // explore and media

  explore(id: string, query: ExploreQuery = {}): Promise<ExplorePage> {
    return this.t.json('GET', `/api/v1/explore/${enc(id)}`, { query: exploreQuery(query) });
  }

  clusters(id: string, query: ExploreQuery = {}): AsyncIterableIterator<Cluster> {
    return byPageNumber(query.page ?? 0, async (page) => {
      const current = await this.explore(id, { ...query, page });
      return { items: current.clusters, more: (page + 1) * current.clusters_per_page < current.total_clusters };
    });
  }

  /** Uploads an image as a similarity anchor (search-image-similarity), then explores around it. */
  async similarToImage(id: string, imagePath: string, query: ExploreQuery = {}): Promise<ExplorePage> {
    const file = { path: path.resolve(imagePath), relative: path.basename(imagePath), size: fs.statSync(imagePath).size };
    const anchor = await this.t.json<{ anchor_media_id: string; anchor_type: string }>('POST', `/api/v1/dataset/${enc(id)}/search-image-similarity`, { body: () => mediaForm([file], 'file') });
    return this.explore(id, { sortBy: 'relevance', ...query, similarTo: anchor.anchor_media_id, anchorType: anchor.anchor_type });
  }

  media(id: string, options: { mediaType?: 'IMAGE' | 'VIDEO'; pageSize?: number } = {}): AsyncIterableIterator<Media> {
    return byOffset(options.pageSize ?? 100, async (offset, limit) => {
      const page = await unwrap(this.api.GET('/api/v1/dataset/{dataset_id}/media', { params: { path: { dataset_id: id }, query: { offset, limit, media_type: options.mediaType } } }));
      return { items: page.media, more: offset + page.media.length < page.total };
    });
  }

  mediaItem(id: string, mediaId: string): Promise<MediaDetail> {
    return unwrap(this.api.GET('/api/v1/dataset/{dataset_id}/media/{media_id}', { params: { path: { dataset_id: id, media_id: mediaId } } }));
  }

  duplicates(id: string, mediaId: string): Promise<unknown> {
    return unwrap(this.api.GET('/api/v1/dataset/{dataset_id}/media/{media_id}/duplicates', { params: { path: { dataset_id: id, media_id: mediaId } } }));
  }

  /** Level-0 clusters with more than one media: the groups of near-duplicates. */
  async *duplicateGroups(id: string): AsyncIterableIterator<Cluster> {
    for await (const cluster of this.clusters(id, { level: 0, issueType: 'duplicates' })) if (cluster.n_media > 1) yield cluster;
  }

  // snapshots

  snapshots(id: string): Promise<Snapshot[]> {
    return unwrap(this.api.GET('/api/v1/dataset/{dataset_id}/snapshot', { params: { path: { dataset_id: id } } }));
  }

  createSnapshot(id: string, input: { name: string; description?: string }): Promise<Snapshot> {
    return unwrap(this.api.POST('/api/v1/dataset/{dataset_id}/snapshot', { params: { path: { dataset_id: id } }, body: input }), 'POST');
  }

  updateSnapshot(id: string, snapshotId: string, changes: { name?: string; description?: string }): Promise<Snapshot> {
    return unwrap(this.api.PATCH('/api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}', { params: { path: { dataset_id: id, snapshot_id: snapshotId } }, body: changes }), 'PATCH');
  }

  async restoreSnapshot(id: string, snapshotId: string, options: Wait = {}): Promise<{ taskId: string | null }> {
    const taskId = await this.started('POST', `/api/v1/dataset/${enc(id)}/snapshot/${enc(snapshotId)}/restore`);
    const wait = waitOptionsOf(options.wait);
    if (wait) {
      if (taskId) await this.waitForTask(taskId, { ...wait, until: undefined, failOn: undefined });
      else await this.waitForDataset(id, wait);
    }
    return { taskId };
  }

  /** Clones a snapshot into a new dataset; its id comes from the SNAPSHOT_CLONE task, which belongs to the new dataset. */
  async cloneSnapshot(id: string, snapshotId: string, options: Wait = {}): Promise<{ taskId: string | null; datasetId: string | null }> {
    const taskId = await this.started('POST', `/api/v1/dataset/${enc(id)}/snapshot/${enc(snapshotId)}/clone`);
    if (!taskId) return { taskId, datasetId: null };
    const wait = waitOptionsOf(options.wait);
    const task = wait ? await this.waitForTask(taskId, wait) : await this.task(taskId);
    return { taskId, datasetId: task.dataset_id };
  }

  async deleteSnapshot(id: string, snapshotId: string): Promise<void> {
    await unwrap(this.api.DELETE('/api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}', { params: { path: { dataset_id: id, snapshot_id: snapshotId } } }), 'DELETE');
  }

  // exports

  startExport(id: string, options: StartExportOptions): Promise<{ exportTaskId: string }> {
    return startExport(this.t, id, options);
  }

  download(datasetId: string, exportTaskId: string, toPath: string, options: DownloadOptions = {}): Promise<{ path: string; bytes: number }> {
    return downloadExport(this.t, datasetId, exportTaskId, toPath, options);
  }

  /** start + wait + download. */
  async export(id: string, options: ExportOptions): Promise<{ path: string; bytes: number }> {
    const { exportTaskId } = await this.startExport(id, options);
    await this.waitForExport(id, exportTaskId, { signal: options.signal, ...options.wait });
    return this.download(id, exportTaskId, options.path, options);
  }

  // enrichment

  enrichmentModels(id: string): Promise<EnrichmentModel[]> {
    return unwrap(this.api.GET('/api/v1/enrichment/{dataset_id}/list_models', { params: { path: { dataset_id: id } } }));
  }

  /** Starts enrichment into a new dataset copy; with `wait`, waits for that copy to be READY. */
  async enrich(id: string, models: Record<string, string>, options: Wait = {}): Promise<{ datasetId: string; dataset?: Dataset }> {
    const started = await this.t.json<{ dataset_id: string }>('POST', `/api/v1/dataset/${enc(id)}/enrich_dataset`, { json: { enrichment_models: models } });
    const wait = waitOptionsOf(options.wait);
    return wait ? { datasetId: started.dataset_id, dataset: await this.waitForDataset(started.dataset_id, wait) } : { datasetId: started.dataset_id };
  }

  // tasks

  tasks(filters: TaskFilters = {}): AsyncIterableIterator<Task> {
    return byPageNumber(1, async (page) => {
      const current = await unwrap(this.api.GET('/api/v1/tasks', { params: { query: { ...filters, page } } }));
      return { items: current.tasks, more: page * current.page_size < current.total };
    });
  }

  task(taskId: string): Promise<Task> {
    return unwrap(this.api.GET('/api/v1/tasks/{task_id}', { params: { path: { task_id: taskId } } }));
  }

  abortTask(taskId: string): Promise<Task> {
    return unwrap(this.api.POST('/api/v1/tasks/{task_id}/abort', { params: { path: { task_id: taskId } } }), 'POST');
  }

  retryTask(taskId: string): Promise<Task> {
    return unwrap(this.api.POST('/api/v1/tasks/{task_id}/retry', { params: { path: { task_id: taskId } } }), 'POST');
  }

  // notifications

  notifications(options: { unreadOnly?: boolean; datasetId?: string; pageSize?: number } = {}): AsyncIterableIterator<Notification> {
    return byOffset(options.pageSize ?? 100, async (offset, limit) => {
      const page = await unwrap(this.api.GET('/api/v1/notifications', { params: { query: { offset, limit, unread_only: options.unreadOnly ?? false, dataset_id: options.datasetId } } }));
      return { items: page.notifications, more: page.has_more };
    });
  }

  unreadCount(datasetId?: string): Promise<number> {
    return unwrap(this.api.GET('/api/v1/notifications/unread-count', { params: { query: { dataset_id: datasetId } } }));
  }

  async markRead(notificationId: string): Promise<void> {
    await unwrap(this.api.POST('/api/v1/notifications/{notification_id}/read', { params: { path: { notification_id: notificationId } } }), 'POST');
  }

  async markAllRead(datasetId?: string): Promise<void> {
    await unwrap(this.api.POST('/api/v1/notifications/read-all', { params: { query: { dataset_id: datasetId } } }), 'POST');
  }

  /** The live notification stream; reconnects with Last-Event-ID after a dropped connection. */
  notificationStream(options: NotificationStreamOptions = {}): AsyncIterableIterator<StreamEvent> {
    return notificationStream(this.t, this.retries, options);
  }

  /** Sends a request that starts a task and returns the task id its 202 names in Location. */
  private async started(method: string, route: string): Promise<string | null> {
    const response = await this.t.send(method, route);
    await response.body?.cancel().catch(() => {});
    return taskIdOf(response);
  }
}

export type { UploadState, LoupeOptions };
