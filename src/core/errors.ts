/** The one error type the HTTP layer turns into `{"detail": ...}` with `status`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** Headers the answer carries besides the body (Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

/** The catalogue: every error the service raises comes from here, so codes and texts stay consistent. */
export const errors = {
  notAuthenticated: () => new AppError(401, 'Not authenticated'),
  invalidToken: (why: string) => new AppError(401, `Invalid token: ${why}`),
  invalidCredentials: () => new AppError(401, 'Invalid api_key or api_secret'),
  tooManyAuthFailures: (seconds: number) =>
    new AppError(429, `Too many failed authentication attempts; retry in ${seconds} s`, { 'retry-after': String(seconds) }),

  datasetNotFound: () => new AppError(404, 'Dataset not found'),
  userNotFound: (email: string) => new AppError(404, `User not found: ${email}`),
  taskNotFound: () => new AppError(404, 'Task not found'),
  accessNotFound: (email: string) => new AppError(404, `${email} has no shared access to this dataset`),

  forbidden: (action: string) => new AppError(403, `You do not have permission to ${action} this dataset`),

  missingParameter: (name: string) => new AppError(400, `Missing required parameter: ${name}`),
  invalidParameter: (detail: string) => new AppError(400, detail),
  userExists: (email: string) => new AppError(409, `A user with e-mail ${email} already exists`),
  ownerAlreadyHasAccess: () => new AppError(400, 'The dataset owner already has full access'),

  taskNotAbortable: (why: string) => new AppError(409, `Task cannot be aborted: ${why}`),
  taskNotRetryable: (why: string) => new AppError(400, `Task cannot be retried: ${why}`),

  transactionNotFound: (transId: number) => new AppError(404, `Upload transaction ${transId} not found`),
  transactionClosed: (transId: number) => new AppError(409, `Upload transaction ${transId} was already submitted for processing`),
  emptyTransaction: (transId: number) => new AppError(400, `Upload transaction ${transId} has no files; upload files in the form field 'files' first`),
  noFilesInRequest: () => new AppError(400, "No files were sent: use the multipart form field 'files' (repeated, one file each)"),
  wrongFilesField: () => new AppError(422, "Wrong form field name 'files[]': use 'files' (repeated, one file each)"),
  unexpectedFileField: (name: string, expected: readonly string[]) =>
    new AppError(422, `Unexpected file field '${name}': ${expected.length ? `use ${expected.map((f) => `'${f}'`).join(' or ')}` : 'this form takes no files'}`),
  unexpectedFormField: (name: string, expected: readonly string[]) => new AppError(422, `Unexpected form field '${name}'; expected ${expected.join(', ')}`),
  oneFilePerField: (name: string) => new AppError(422, `Send one file only in the form field '${name}'`),
  duplicateFormField: (name: string) => new AppError(422, `Form field '${name}' was sent more than once`),
  malformedMultipart: (why: string) => new AppError(400, `Malformed multipart body: ${why}`),
  fileNameMissing: (field: string) => new AppError(400, `The file in form field '${field}' has no file name`),
  nulInForm: (where: string) => new AppError(400, `${where} contains a NUL byte`),
  nulInField: (path: string) => new AppError(400, `Field '${path}' contains a NUL byte`),
  archiveNotSupported: (fileName: string) =>
    new AppError(400, `Archives are not supported for dataset creation: ${fileName}; upload the media files themselves, or use add_media for archives`),
  unsupportedFormat: (fileName: string) =>
    new AppError(400, `Unsupported file format: ${fileName} (images: JPEG, PNG, WebP, AVIF, TIFF, GIF, BMP, HEIC; videos: MP4, MOV, WebM, MKV, AVI)`),
  imageTooLarge: (fileName: string, width: number, height: number, limit: number) =>
    new AppError(400, `File '${fileName}' declares ${width}×${height} pixels, over the limit of ${limit}`),
  imageWithoutData: (fileName: string) => new AppError(400, `File '${fileName}' has no image data: the file ends after its header`),
  fileTooLarge: (fileName: string, limit: number) => new AppError(413, `File too large: ${fileName} exceeds the limit of ${limit} bytes`),
  requestTooLarge: (limit: number) => new AppError(413, `Request too large: the files in one request may total at most ${limit} bytes`),
  tooManyFiles: (limit: number) => new AppError(413, `Too many files in one request: the limit is ${limit}; send them in batches`),
  datasetAlreadyCreated: () => new AppError(409, 'Dataset is already created; add media to it with add_media'),
  operationRunning: (taskType: string) => new AppError(409, `A ${taskType} task is already running on this dataset`),
  mediaNotFound: () => new AppError(404, 'Media not found'),
  notIndexed: (datasetId: string) => new AppError(409, `Dataset ${datasetId} has no index yet; explore it once it is READY`),
  noEmbeddingMap: (datasetId: string) =>
    new AppError(409, `Dataset ${datasetId} has no embedding map: a map is made when the dataset is indexed; reindex it if it was indexed before maps existed`),
  anchorNotFound: (anchorId: string) => new AppError(404, `Anchor ${anchorId} not found in this dataset (uploaded anchors last one day)`),
  anchorNotEmbedded: (anchorId: string) => new AppError(422, `Anchor ${anchorId} has no embedding (a video is searched through its frames)`),
  anchorModelMismatch: () => new AppError(409, "The anchor was embedded by another model than this dataset's index; upload it again"),
  imageRequired: () => new AppError(400, "Upload one image in the multipart form field 'file'"),
  rangeNotSatisfiable: () => new AppError(416, 'Requested range not satisfiable'),
  pathParameterTooLong: (limit: number) => new AppError(414, `A path parameter is longer than ${limit} characters`),
  badUrl: () => new AppError(400, 'The URL path is not valid: it has a malformed percent-encoding'),
  headersTooLarge: (limit: number) => new AppError(431, `Request line and headers too large: the URL and headers together may be at most ${limit} bytes`),
  malformedRequest: () => new AppError(400, 'Malformed HTTP request'),
  requestTimeout: () => new AppError(408, 'Request timed out'),

  operationBlocked: (operation: string, taskType: string) => new AppError(409, `Operation '${operation}' is blocked while ${taskType} task is running`),
  operationStatus: (operation: string, status: string, allowed: readonly string[]) =>
    new AppError(409, `Operation '${operation}' needs the dataset ${allowed.join(' or ')}; it is ${status}`),
  noEmbeddingConfig: (datasetId: string) => new AppError(400, `Dataset ${datasetId} has no embedding_config... it is indexed when its creation completes; add media after that`),
  archiveInFiles: (fileName: string) => new AppError(400, `${fileName} is an archive: send it in the form field 'archive' (one .zip, .tar or .tar.gz)`),
  notAnArchive: (fileName: string) => new AppError(400, `${fileName} is not a .zip, .tar or .tar.gz archive`),
  archiveRefused: (fileName: string, reason: string) => new AppError(400, `Archive ${fileName} refused: ${reason}`),
  noMediaInArchive: (fileName: string) => new AppError(400, `No images or videos found in archive ${fileName}`),
  exactlyOneSource: () => new AppError(400, 'Exactly one media source must be provided: files[], s3_uri, or archive'),
  noMediaAt: (uri: string) => new AppError(400, `Invalid S3 URI or no media files found at ${uri}`),
  addMediaDisabled: () => new AppError(403, 'Add media feature is not enabled'),
  pathNotAllowed: (path: string) => new AppError(403, `Path ${path} is outside the folders this server may read (LOCAL_MEDIA_ROOTS)`),
  pipelineFailed: (detail: string) => new AppError(500, detail),

  snapshotNotFound: () => new AppError(404, 'Snapshot not found'),
  noCurrentSnapshot: () => new AppError(404, 'Dataset has no current snapshot'),
  snapshotsDisabled: () => new AppError(403, 'Snapshots are not enabled for this dataset'),
  currentSnapshotNotDeletable: () => new AppError(409, 'The current snapshot cannot be deleted; create a new snapshot first'),
  snapshotBeingRestored: () => new AppError(409, 'The snapshot is being restored and cannot be deleted now'),
  noDataToSnapshot: () => new AppError(409, 'Dataset has no indexed data to snapshot yet'),

  exportNotFound: () => new AppError(404, 'Export not found (finished exports expire)'),
  exportNotReady: (status: string) => new AppError(409, `Export needs the dataset READY; it is ${status}`),
  emptySelection: () => new AppError(422, 'media_selection must select at least one media item or cluster'),
  unknownMediaIds: (ids: string[]) => new AppError(422, `Unknown media_ids in this dataset: ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? `, … (${ids.length} in all)` : ''}`),
  unknownClusterIds: (ids: string[]) => new AppError(422, `Unknown cluster_id in this dataset: ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? `, … (${ids.length} in all)` : ''}`),
  unknownObjectIds: (ids: string[]) => new AppError(422, `Unknown object_ids in this dataset: ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ', …' : ''}`),
  exportGone: () => new AppError(410, 'The export archive has expired or was removed'),
  downloadLinkInvalid: () => new AppError(401, 'Invalid or expired download link'),

  viewNotFound: () => new AppError(404, 'Saved view not found'),
  viewForbidden: () => new AppError(403, 'Only the creator of a saved view or an editor of its dataset may change or delete it'),
  viewUploadAnchor: () =>
    new AppError(422, 'A saved view cannot keep an uploaded anchor (anchor_type UPLOAD lasts one day); use anchor_type MEDIA with a media of the dataset'),
  notifyNotEntitled: (email: string) => new AppError(422, `notify_emails: ${email} is not a user with access to this dataset`),
  notificationNotFound: () => new AppError(404, 'Notification not found or already read'),

  noEnrichmentModels: () => new AppError(422, 'enrichment_models must map at least one enrichment type to a model id'),
  unknownEnrichmentType: (type: string, known: readonly string[]) =>
    new AppError(422, `Unknown enrichment type '${type}'; the types are ${known.join(', ')}`),
  unknownEnrichmentModel: (id: string) => new AppError(422, `Unknown enrichment model '${id}'; list the models with GET /api/v1/enrichment/{dataset_id}/list_models`),
  enrichmentModelTypeMismatch: (id: string, modelType: string, asked: string) =>
    new AppError(422, `Model '${id}' is a ${modelType} model and cannot be applied as ${asked}`),
  enrichmentModelInactive: (id: string, status: string) => new AppError(422, `Model '${id}' is not Active (${status}) and cannot be applied`),
  enrichmentDependencyMissing: (type: string, dependency: string) =>
    new AppError(422, `${type} depends on ${dependency}: apply ${dependency} first or in the same request`),
  metadataFileRequired: () => new AppError(400, "Upload the metadata file in the multipart form field 'file' (CSV with a header, JSON lines or Parquet)"),
  metadataFileTooLarge: (limit: number) => new AppError(400, `Metadata file refused, nothing changed: it is larger than the limit of ${limit} bytes (CUSTOM_METADATA_MAX_BYTES)`),
  badMetadataFile: (problem: string) => new AppError(400, `Metadata file refused, nothing changed: ${problem}`),
  importNotFound: () => new AppError(404, 'Custom metadata import not found'),

  dedupNotIndexed: (datasetId: string) =>
    new AppError(409, `Dataset ${datasetId} has no near-duplicate index: its current version was never indexed, so it has no clusters; use scope exact, or reindex it first`),
  unknownDedupField: (field: string, known: string[]) =>
    new AppError(422, `field: '${field}' is not a custom metadata field of this dataset; ${known.length ? `its fields are ${known.join(', ')}` : 'it has none (import some with POST /api/v1/dataset/{dataset_id}/custom_metadata)'}`),
  unorderedDedupField: (field: string, type: string) =>
    new AppError(422, `field: '${field}' is a ${type} field, which has no order; keep custom_field needs a number, string, datetime or boolean field`),
  leakageRunNotFound: () => new AppError(404, 'Leakage run not found'),
  notLeakageTask: (taskId: string, taskType: string) => new AppError(422, `Task ${taskId} is a ${taskType} task, not a leakage run`),
  leakageNotFinished: (taskId: string, status: string) => new AppError(409, `Leakage task ${taskId} is ${status}; its result can be read once it is COMPLETED`),
  embeddingModelsDiffer: (datasetId: string, otherId: string, model: string, otherModel: string) =>
    new AppError(409, `Datasets ${datasetId} and ${otherId} were embedded by different models (${model} and ${otherModel}); their vectors cannot be compared`),

  validation: (detail: string) => new AppError(422, detail),
  notReady: (why: string) => new AppError(503, why),
  noLabels: (need: number) =>
    new AppError(409, `Label errors need at least ${need} media with an image label; label media first (PUT /api/v1/dataset/{dataset_id}/media/label)`),
  noObjectLabels: (need: number, found: number) =>
    new AppError(
      422,
      `Label errors on objects need at least ${need} detected objects with a crop embedding; this dataset has ${found}: detect objects first (POST /api/v1/dataset/{dataset_id}/enrich_dataset with OBJECT_DETECTION)`,
    ),
} as const;
