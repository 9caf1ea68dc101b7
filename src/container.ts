import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './adapters/db/database.js';
import type { EmbeddedOwner } from './adapters/db/embedded-postgres.js';
import type { BlobStore } from './adapters/blobs/blob-store.js';
import { openBlobStore } from './adapters/blobs/open-blob-store.js';
import type { BlobDownloads } from './http/range.js';
import { NodeRegistry, nodeIdentity } from './modules/system/nodes.js';
import { CHANNELS, PgEvents } from './adapters/events/pg-events.js';
import { ImageWorkerPool } from './adapters/media/image-workers.js';
import { KeyBox, loadServerKey } from './adapters/secrets/key-box.js';
import { UrlSigner } from './adapters/secrets/url-signer.js';
import { installQueueSchema } from './adapters/queue/graphile-queue.js';
import type { JobDeps } from './jobs/registry.js';
import { type MediaChunkPayload, mediaChunkWork } from './jobs/media-chunks.js';
import { enrichmentChunkWork, type EnrichmentChunkPayload } from './jobs/enrichment.job.js';
import { TASK_CHUNK_JOB } from './jobs/task-chunks.js';
import { AccessRepo } from './modules/access/access.repo.js';
import { AccessService } from './modules/access/access.service.js';
import { AuthRepo } from './modules/auth/auth.repo.js';
import { AuthService } from './modules/auth/auth.service.js';
import { DatasetRemovalRepo } from './modules/datasets/dataset-removal.repo.js';
import { DatasetsRepo } from './modules/datasets/datasets.repo.js';
import { DatasetsService } from './modules/datasets/datasets.service.js';
import { DatasetLifecycle } from './modules/lifecycle/dataset-lifecycle.js';
import { DatasetLifecycleRepo } from './modules/lifecycle/dataset-lifecycle.repo.js';
import { IngestionRepo } from './modules/ingestion/ingestion.repo.js';
import { IngestionService } from './modules/ingestion/ingestion.service.js';
import { BlobGcRepo } from './modules/media/blob-gc.repo.js';
import { MediaRepo } from './modules/media/media.repo.js';
import { MediaService } from './modules/media/media.service.js';
import { TaskListRepo } from './modules/tasks/task-list.repo.js';
import { TasksRepo } from './modules/tasks/tasks.repo.js';
import { TasksService } from './modules/tasks/tasks.service.js';
import { VersionsRepo } from './modules/versions/versions.repo.js';
import { VersionGcRepo } from './modules/versions/version-gc.repo.js';
import { summariseOneHead } from './modules/versions/cluster-summaries.js';
import { summariseOneHeadIssues } from './modules/versions/issue-summaries.js';
import { HEAD_SUMMARIES_JOB, summariseHeadFacets, summariseOneHeadFacets } from './modules/versions/facet-summaries.js';
import { SnapshotsRepo } from './modules/snapshots/snapshots.repo.js';
import { SnapshotsService } from './modules/snapshots/snapshots.service.js';
import { ExportsRepo } from './modules/exports/exports.repo.js';
import { ExportsService } from './modules/exports/exports.service.js';
import { IndexingRepo } from './modules/indexing/indexing.repo.js';
import { ExploreRepo } from './modules/explore/explore.repo.js';
import { AddMediaRepo } from './modules/add-media/add-media.repo.js';
import { AddMediaService } from './modules/add-media/add-media.service.js';
import { S3MediaProbe } from './modules/add-media/remote-media.js';
import { ExploreService } from './modules/explore/explore.service.js';
import { IssuesRepo } from './modules/explore/issues.repo.js';
import { IssuesService } from './modules/explore/issues.service.js';
import { DedupRepo } from './modules/dedup/dedup.repo.js';
import { DedupService } from './modules/dedup/dedup.service.js';
import { LeakageRepo } from './modules/leakage/leakage.repo.js';
import { LeakageService } from './modules/leakage/leakage.service.js';
import { LabelErrorsRepo } from './modules/label-errors/label-errors.repo.js';
import { LabelErrorsService } from './modules/label-errors/label-errors.service.js';
import { MapRepo } from './modules/map/map.repo.js';
import { MapService } from './modules/map/map.service.js';
import { ViewsRepo } from './modules/views/views.repo.js';
import { ViewsService } from './modules/views/views.service.js';
import { NotificationsRepo } from './modules/notifications/notifications.repo.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { NotificationStreams } from './modules/notifications/notification-streams.js';
import { AlertsRepo } from './modules/notifications/alerts.repo.js';
import { AlertsService } from './modules/notifications/alerts.service.js';
import { AlertConsumer } from './jobs/alert-consumer.js';
import { VectorIndexCache } from './modules/explore/vector-index-cache.js';
import { AnnotationsRepo } from './modules/annotations/annotations.repo.js';
import { AnnotationsService } from './modules/annotations/annotations.service.js';
import { SelectionRepo } from './modules/selection/selection.repo.js';
import { SelectionService } from './modules/selection/selection.service.js';
import { CustomMetadataRepo } from './modules/custom-metadata/custom-metadata.repo.js';
import { CustomMetadataService } from './modules/custom-metadata/custom-metadata.service.js';
import { loadWordVectorEmbedder } from './adapters/models/text-embedder.js';
import { centerNetIdentity } from './adapters/models/centernet-identity.js';
import { OpenAiCaptioner } from './adapters/models/openai-captioner.js';
import { type EnrichmentPool, createEnrichmentPool, enrichmentRuntimes } from './adapters/models/enrichment/index.js';
import { type EnrichmentModel, modelCatalogue, openaiModel } from './modules/enrichment/enrichment-models.js';
import { EnrichmentRepo } from './modules/enrichment/enrichment.repo.js';
import { EnrichmentService } from './modules/enrichment/enrichment.service.js';
import { MediaEnricher } from './modules/enrichment/media-enricher.js';

/** The services the HTTP layer (and the CLI, in part) call. */
export interface Services {
  auth: AuthService;
  datasets: DatasetsService;
  access: AccessService;
  tasks: TasksService;
  ingestion: IngestionService;
  media: MediaService;
  explore: ExploreService;
  issues: IssuesService;
  dedup: DedupService;
  map: MapService;
  addMedia: AddMediaService;
  snapshots: SnapshotsService;
  views: ViewsService;
  notifications: NotificationsService;
  exports: ExportsService;
  enrichment: EnrichmentService;
  annotations: AnnotationsService;
  labelErrors: LabelErrorsService;
  customMetadata: CustomMetadataService;
  selection: SelectionService;
  leakage: LeakageService;
  downloads: BlobDownloads;
}

export interface Container {
  config: Config;
  database: DatabaseHandle;
  blobs: BlobStore;
  /** Every dataset status change; the worker ends tasks through it. */
  lifecycle: DatasetLifecycle;
  repos: { tasks: TasksRepo; media: MediaRepo; blobGc: BlobGcRepo; versionGc: VersionGcRepo; exports: ExportsRepo; customMetadata: CustomMetadataRepo };
  services: Services;
  /** What each declared job needs, by job name (src/jobs/registry.ts). */
  jobDeps: JobDeps;
  /** Alert evaluation; server.ts starts it in the worker role. */
  alerts: AlertConsumer;
  /** This process's notification streams (API role). */
  notificationStreams: NotificationStreams;
  checkDatabase: () => Promise<void>;
  /** This process among the server processes on its database; server.ts joins it before serving. */
  nodes: NodeRegistry;
  close(): Promise<void>;
}

/** Worker pools a caller made for this config and closes itself (see StartOptions.pools); the container leaves them open. */
export interface SharedPools {
  images?: ImageWorkerPool;
  enrichment?: EnrichmentPool;
}

/** The composition root: picks adapters from config and wires repos into services, once. */
export async function createContainer(config: Config, log: Logger, owner: EmbeddedOwner, shared: SharedPools = {}): Promise<Container> {
  const blobs = await openBlobStore(config);
  // Uploads cut by a crash leave temp files; an hour old means no request is still writing them.
  const staleTemp = await blobs.cleanTemp();
  if (staleTemp > 0) log.info({ removed: staleTemp }, 'removed temp files left by interrupted uploads');
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, sharedBuffersMb: config.dbSharedBuffersMb, owner }, log);
  try {
    await installQueueSchema(database.pool);
  } catch (err) {
    await database.close();
    throw err;
  }
  const { db } = database;
  const serverKey = loadServerKey(config.secretKey, config.dataDir);
  const nodes = new NodeRegistry(db, nodeIdentity(config, serverKey), log);
  const keyBox = new KeyBox(serverKey);


  const tasksRepo = new TasksRepo(db);
  const datasetsRepo = new DatasetsRepo(db);
  const lifecycle = new DatasetLifecycle(new DatasetLifecycleRepo(), tasksRepo);
  const ingestionRepo = new IngestionRepo(db);
  const mediaRepo = new MediaRepo(db);
  const auth = new AuthService(new AuthRepo(db), keyBox, config);
  const removal = new DatasetRemovalRepo(db);
  const datasets = new DatasetsService(db, datasetsRepo, removal, config.snapshotsEnabled);
  const access = new AccessService(new AccessRepo(db), datasets, auth);
  const tasks = new TasksService(tasksRepo, new TaskListRepo(db, database.pool), datasets, lifecycle);
  const blobGc = new BlobGcRepo(db);
  const ingestion = new IngestionService(db, ingestionRepo, datasets, lifecycle, blobs, blobGc, config.upload);
  const signer = new UrlSigner(serverKey);
  const media = new MediaService(mediaRepo, datasets, blobs, signer);
  const images = shared.images ?? new ImageWorkerPool(config.media.concurrency, { embeddingInputSize: config.embeddingInputSize }, config.backgroundNice);
  const explore = new ExploreService(new ExploreRepo(db), datasets, new VectorIndexCache(), images, loadWordVectorEmbedder, blobs);
  const issues = new IssuesService(new IssuesRepo(db), datasets);
  const map = new MapService(new MapRepo(db), datasets);
  const addMediaRepo = new AddMediaRepo(db);
  const localRoots = await Promise.all(config.addMedia.localRoots.map((root) => realpath(root).catch(() => root)));
  const addMedia = new AddMediaService(db, addMediaRepo, ingestionRepo, datasets, lifecycle, blobs, blobGc, new S3MediaProbe(config.objectStorageEnv, log), {
    enabled: config.addMedia.enabled,
    localRoots,
    limits: config.upload,
  });
  const snapshotsRepo = new SnapshotsRepo(db);
  const snapshots = new SnapshotsService(db, snapshotsRepo, datasets, lifecycle);
  const viewsRepo = new ViewsRepo(db);
  const views = new ViewsService(viewsRepo, datasets, explore);
  const notificationsRepo = new NotificationsRepo(db);
  const notificationStreams = new NotificationStreams(notificationsRepo, log);
  const notifications = new NotificationsService(notificationsRepo, notificationStreams);
  const alerts = new AlertConsumer(new AlertsService(db, new AlertsRepo(db), notificationsRepo, explore, log), log);
  const exportsRepo = new ExportsRepo(db);
  const exports = new ExportsService(db, exportsRepo, datasets, lifecycle, blobs, signer, config.export);
  const openai = config.enrichment.openai ? new OpenAiCaptioner(config.enrichment.openai) : null;
  const byoModels = openai && config.enrichment.openai ? [openaiModel(config.enrichment.openai.model, openai.host)] : [];
  const catalogue = (): EnrichmentModel[] => modelCatalogue(enrichmentRuntimes(), byoModels);
  // Model weights load on the first enrichment, in worker threads, not at boot.
  let enrichmentPool: EnrichmentPool | null = null;
  const builtins = () =>
    (enrichmentPool ??= shared.enrichment ?? createEnrichmentPool({ threads: config.enrichment.threads, embeddingInputSize: config.embeddingInputSize, nice: config.backgroundNice }));
  const enrichmentRepo = new EnrichmentRepo(db, config.fullSetFloor);
  const enrichment = new EnrichmentService(db, enrichmentRepo, datasets, lifecycle, catalogue);
  const versionsRepo = new VersionsRepo(db, config.fullSetFloor);
  const annotationsRepo = new AnnotationsRepo(db, config.fullSetFloor);
  const annotations = new AnnotationsService(db, annotationsRepo, datasets, lifecycle, versionsRepo);
  const labelErrorsRepo = new LabelErrorsRepo(db, database.pool);
  const labelErrors = new LabelErrorsService(db, labelErrorsRepo, datasets, lifecycle);
  const dedupRepo = new DedupRepo(db);
  const dedup = new DedupService(db, dedupRepo, datasets, lifecycle, versionsRepo);
  const customMetadataRepo = new CustomMetadataRepo(db, database.pool, config.fullSetFloor);
  const customMetadata = new CustomMetadataService(db, customMetadataRepo, datasets, lifecycle, versionsRepo, blobs, blobGc, config.customMetadataMaxBytes);
  const indexing = new IndexingRepo(db, database.pool);
  const selectionRepo = new SelectionRepo(db, database.pool);
  const selection = new SelectionService(db, selectionRepo, datasets, lifecycle, versionsRepo);
  const pipeline = {
    db,
    blobs,
    images,
    media: mediaRepo,
    ingestion: ingestionRepo,
    datasets: datasetsRepo,
    lifecycle,
    versions: versionsRepo,
    snapshots: snapshotsRepo,
    indexing,
    blobGc,
    embedding: centerNetIdentity(config.embeddingInputSize),
    indexThreads: config.indexThreads,
    backgroundNice: config.backgroundNice,
    maxFileBytes: config.upload.maxFileBytes,
    env: config.objectStorageEnv,
    concurrency: config.media.concurrency,
    chunkItems: config.chunks.items,
    staleSeconds: config.chunks.staleSeconds,
    frames: {
      maxFrames: config.media.videoMaxFrames,
      intervalSeconds: config.media.videoFrameIntervalSeconds,
      sceneThreshold: config.media.sceneThreshold,
    },
  };
  const enrichmentDeps = {
    db,
    blobs,
    enrichment: enrichmentRepo,
    enricher: new MediaEnricher(builtins, openai),
    enrichmentModels: catalogue,
    enrichmentConcurrency: config.enrichment.threads + (openai ? config.enrichment.openai!.concurrency : 0),
    versions: versionsRepo,
    indexing,
    snapshots: snapshotsRepo,
    datasets: datasetsRepo,
    indexThreads: config.indexThreads,
    backgroundNice: config.backgroundNice,
    chunkItems: config.chunks.items,
    staleSeconds: config.chunks.staleSeconds,
  };
  const versionGc = new VersionGcRepo(db);
  const leakageRepo = new LeakageRepo(db, database.pool);
  const leakage = new LeakageService(db, leakageRepo, datasets, lifecycle);
  const jobDeps: JobDeps = {
    DATASET_CREATION: pipeline,
    MEDIA_ADDITION: { ...pipeline, addMedia: addMediaRepo },
    REINDEX: pipeline,
    ENRICHMENT: enrichmentDeps,
    CUSTOM_METADATA: { blobs, blobGc, customMetadata: customMetadataRepo, annotations: annotationsRepo, lifecycle, versions: versionsRepo },
    SNAPSHOT_RESTORE: { snapshots: snapshotsRepo, versions: versionsRepo },
    SNAPSHOT_CLONE: { snapshots: snapshotsRepo, versions: versionsRepo, indexing, views: viewsRepo, enrichment: enrichmentRepo },
    LABEL_PROPAGATION: { db, annotations: annotationsRepo, lifecycle, versions: versionsRepo },
    DEDUP: { db, dedup: dedupRepo, lifecycle, versions: versionsRepo, snapshots: snapshotsRepo },
    SELECTION: { db, selection: selectionRepo, annotations: annotationsRepo, indexing, lifecycle, versions: versionsRepo, threads: config.indexThreads, backgroundNice: config.backgroundNice },
    LEAKAGE: { db, leakage: leakageRepo, lifecycle, versions: versionsRepo, threads: config.indexThreads },
    LABEL_ERRORS: { db, blobs, labelErrors: labelErrorsRepo, annotations: annotationsRepo, lifecycle, versions: versionsRepo, indexThreads: config.indexThreads },
    EXPORT: { db, pool: database.pool, blobs, exports: exportsRepo, blobGc, log, ttlSeconds: config.export.ttlSeconds },
    'sweep-expired-exports': { exports: exportsRepo, log },
    'sweep-staging-tables': { staging: customMetadataRepo, log },
    'sweep-versions': {
      versions: versionGc,
      graceSeconds: config.versionGcGraceSeconds,
      purgeDeletedAfterSeconds: config.snapshotPurgeAfterSeconds,
      log,
    },
    'sweep-blobs': { queue: blobGc, blobs, graceSeconds: config.blobGcGraceSeconds, log },
    'sweep-summaries': {
      summariseOneHead: async () => (await summariseOneHead(db)) || (await summariseOneHeadIssues(db)),
      summariseOneHeadFacets: () => summariseOneHeadFacets(db, config.facetSummaryFloor),
      log,
    },
    [TASK_CHUNK_JOB]: {
      db,
      staleSeconds: config.chunks.staleSeconds,
      tasks: tasksRepo,
      works: {
        media: (payload) => mediaChunkWork(pipeline, payload as unknown as MediaChunkPayload),
        enrichment: (payload) => enrichmentChunkWork(enrichmentDeps, payload as unknown as EnrichmentChunkPayload),
      },
    },
    [HEAD_SUMMARIES_JOB]: { summariseHeadFacets: (datasetId: string) => summariseHeadFacets(db, datasetId, config.facetSummaryFloor) },
  };

  // After a reconnect, what was announced meanwhile is lost: drop caches, read notifications and batches again.
  const events = new PgEvents(database.connection, log, () => {
    auth.forgetKey();
    notificationStreams.announce();
    alerts.poke();
  });
  events.on(CHANNELS.apiKeyRevoked, (apiKey) => auth.forgetKey(apiKey));
  if (config.role !== 'api') events.on(CHANNELS.mediaBatchProcessed, () => alerts.poke());
  if (config.role !== 'worker') events.on(CHANNELS.notificationCreated, () => notificationStreams.announce());
  try {
    await events.start();
  } catch (err) {
    await database.close();
    throw err;
  }

  return {
    config,
    database,
    blobs,
    lifecycle,
    repos: { tasks: tasksRepo, media: mediaRepo, blobGc, versionGc, exports: exportsRepo, customMetadata: customMetadataRepo },
    services: {
      ...{ auth, datasets, access, tasks, ingestion, media, explore, issues, map, addMedia, snapshots, exports, views, notifications, annotations, customMetadata, enrichment },
      ...{ dedup, selection, labelErrors, leakage },
      downloads: { blobs, proxy: config.blobs.proxy },
    },
    jobDeps,
    alerts,
    notificationStreams,
    checkDatabase: async () => {
      await sql`select 1`.execute(db);
    },
    nodes,
    close: async () => {
      notificationStreams.closeAll();
      await alerts.stop();
      await events.close();
      if (!shared.images) await images.close();
      if (!shared.enrichment) await enrichmentPool?.close();
      await database.close();
    },
  };
}
