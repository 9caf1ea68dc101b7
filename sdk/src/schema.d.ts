// Generated from openapi.json by `npm run openapi`: do not edit.
export interface paths {
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (text exposition format) */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database answers; where this process runs the garbage sweeps, how each has fared (a failing sweep does not make it unready) */
        get: operations["getReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of the web app (HTML); the app signs in and talks to the API itself */
        get: operations["getWebPageSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/datasets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of the web app (HTML); the app signs in and talks to the API itself */
        get: operations["getWebPageDatasets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/datasets/{*}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of the web app (HTML); the app signs in and talks to the API itself */
        get: operations["getWebPageDatasetsByPath"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of the web app (HTML); the app signs in and talks to the API itself */
        get: operations["getWebPageTasks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of the web app (HTML); the app signs in and talks to the API itself */
        get: operations["getWebPageNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where to start: the web app for a browser, links to the API reference for a script */
        get: operations["getRoot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with an API key pair; sets an HttpOnly session cookie accepted by every route (also when sent as `SESSION`) */
        post: operations["postAuthSession"];
        /** Sign out: ends the session cookie */
        delete: operations["deleteAuthSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user */
        get: operations["getAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api_credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Issue a new API key pair to the signed-in user; the secret is shown only in this response */
        get: operations["getApiCredentials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingestion/new_dataset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Create an empty dataset owned by the caller (step 1 of creation from local files) */
        get: operations["getIngestionNewDataset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingestion/{dataset_id}/data_files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open an upload transaction (step 2) */
        get: operations["getIngestionDataFiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingestion/{dataset_id}/data_files/{trans_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload files into a transaction (step 3): multipart, repeated field 'files'; may be repeated, ~50 files per request */
        post: operations["postIngestionDataFilesByTransId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingestion/{dataset_id}/process_files/{trans_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Process the uploaded files (step 4): starts a DATASET_CREATION task; poll the dataset until READY or ERROR */
        post: operations["postIngestionProcessFilesByTransId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dataset status and counts */
        get: operations["getDatasetByDatasetId"];
        put?: never;
        post?: never;
        /** Delete a dataset (owner only; 409 while a task runs on it); blobs nothing else uses are reclaimed */
        delete: operations["deleteDatasetByDatasetId"];
        options?: never;
        head?: never;
        /** Rename or re-describe a dataset (display_name and/or description) */
        patch: operations["patchDatasetByDatasetId"];
        trace?: never;
    };
    "/api/v1/datasets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Datasets the caller owns or that are shared with them, newest first */
        get: operations["getDatasets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Share a dataset: form fields `user_email` and optional `role` (viewer, the default, or editor) */
        post: operations["postDatasetShare"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/manage/{dataset_id}/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Share a dataset with a user by e-mail, as viewer (default) or editor */
        put: operations["putManageInvite"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/manage/{dataset_id}/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who has access: the owner first, then shared users */
        get: operations["getManageShare"];
        put?: never;
        post?: never;
        /** Revoke a user's shared access */
        delete: operations["deleteManageShare"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tasks on every dataset the caller can access, newest first by default */
        get: operations["getTasks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/filters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Values the task list can be filtered by, within an optional start-time range */
        get: operations["getTasksFilters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One task, as a row of the task list: where the Location of a 202 that started it points (404 on a dataset the caller cannot see) */
        get: operations["getTasksByTaskId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task_id}/abort": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Abort a running DATASET_CREATION task (409 once final or committing) */
        post: operations["postTasksAbort"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retry a FAILED or ABORTED DATASET_CREATION task with its original configuration */
        post: operations["postTasksRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The media of the dataset (its current version), oldest first, paged */
        get: operations["getDatasetMedia"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/media/{media_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A media item of the dataset: its facts and signed links to the original, thumbnail and preview */
        get: operations["getDatasetMediaByMediaId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/media/{media_id}/{variant}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The bytes of the original, its WebP thumbnail (256 px) or preview (1024 px); ETag and Range supported. With BLOB_URL (unless BLOB_PROXY) a 302 to a presigned URL of the bucket serving them */
        get: operations["getDatasetMediaByMediaIdAndVariant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/add_media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add media to an indexed dataset (READY or PARTIAL INDEX) as one batch: exactly one of the form fields 'files' (repeated), 'archive' (.zip, .tar, .tar.gz) or 's3_uri' (folder or .csv/.parquet/.txt manifest); optional auto_reindex, assume_role, batch_n_images, batch_n_videos, batch_n_objects, use_spot. Files need multipart; s3_uri may also come urlencoded. Starts a MEDIA_ADDITION task; 202 with an empty body and a Location header naming the task */
        post: operations["postDatasetAddMedia"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/reindex": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Recompute the neighbour graph, clusters and scores over all media: only from PARTIAL INDEX; starts a REINDEX task; 202 with a Location header naming the task */
        post: operations["postDatasetReindex"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/process/add_media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** On-premises source (the pipeline URL): add the media under an absolute folder on this server, which must lie inside LOCAL_MEDIA_ROOTS (403 otherwise); same rules as add_media; 202 with a Location header naming the MEDIA_ADDITION task */
        get: operations["getProcessAddMedia"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dataset's snapshots, newest first (soft-deleted ones never appear) */
        get: operations["getDatasetSnapshot"];
        put?: never;
        /** Snapshot the dataset as it is now (READY, no data-changing task running); it becomes current, reason manual */
        post: operations["postDatasetSnapshot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Soft-delete a snapshot (409 for the current one); clones made from it are unaffected */
        delete: operations["deleteDatasetSnapshotBySnapshotId"];
        options?: never;
        head?: never;
        /** Rename or re-describe a snapshot (name and/or description); its data is unchanged */
        patch: operations["patchDatasetSnapshotBySnapshotId"];
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore the dataset to a snapshot (a UUID, or `current`): starts a SNAPSHOT_RESTORE task, the dataset is READ ONLY until it ends READY; 202 with a Location header naming the task */
        post: operations["postDatasetSnapshotRestore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/clone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Clone a snapshot into a new dataset "<name> (cloned)" owned by the caller; its SNAPSHOT_CLONE task runs on the new dataset; 202 with a Location header naming the task, whose dataset_id is the new dataset */
        post: operations["postDatasetSnapshotClone"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/export_context_async": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Start exporting the whole dataset as a ZIP (metadata, optionally the media files); needs READY */
        get: operations["getDatasetExportContextAsync"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/export_entities_async": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start exporting a selection (media ids and/or clusters, their union) as a ZIP; unknown ids are a 422 */
        post: operations["postDatasetExportEntitiesAsync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/export_status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An export: PENDING (also while running), COMPLETED with download_uri, FAILED or REJECTED with result_message */
        get: operations["getDatasetExportStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exports/{export_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The ZIP of a completed export: a signed link from export_status, or a token; Range supported. With BLOB_URL (unless BLOB_PROXY) a 302 to a presigned URL of the bucket serving it */
        get: operations["getExportsDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/enrichment/{dataset_id}/list_models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The enrichment models this server has; only Active ones can be applied */
        get: operations["getEnrichmentListModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/enrichment/{dataset_id}/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dataset's enrichment context: status NEW and an empty map until models were applied */
        get: operations["getEnrichmentContext"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/enrich_dataset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enrich a READY dataset into a new copy "<name> (enriched)": 200 with its id at once (INDEXING); an ENRICHMENT task runs the models in dependency order; the source is READ ONLY meanwhile */
        post: operations["postDatasetEnrichDataset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/views": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dataset's saved views, oldest first, each with what it matches now */
        get: operations["getDatasetViews"];
        put?: never;
        /** Save an Explore query as a view: form field `name` (multipart, urlencoded or JSON), the Explore filters as query parameters; monitoring and alerting are on unless the form sets them false */
        post: operations["postDatasetViews"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/views/{view_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One saved view */
        get: operations["getDatasetViewsByViewId"];
        put?: never;
        post?: never;
        /** Delete a view (creator or the dataset's editors); its past notifications stay */
        delete: operations["deleteDatasetViewsByViewId"];
        options?: never;
        head?: never;
        /** Rename a view, switch its monitoring and alerting, replace its filters or the users it alerts (creator or the dataset's editors) */
        patch: operations["patchDatasetViewsByViewId"];
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/media/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add tags to media chosen by media_ids, cluster_ids or an Explore query; a new version of the dataset */
        post: operations["postDatasetMediaTags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/media/tags/remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove tags from the chosen media; a new version of the dataset */
        post: operations["postDatasetMediaTagsRemove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/media/label": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set (or, with null, remove) the label of the chosen media; a new version */
        put: operations["putDatasetMediaLabel"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/objects/label": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the class of detected objects (null restores the detected one; it is kept as detected_label); a new version */
        put: operations["putDatasetObjectsLabel"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dataset's tags with how many media carry each, most used first */
        get: operations["getDatasetTags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dataset's labels with counts, and how many media have none */
        get: operations["getDatasetLabels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/labels/propagate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give unlabelled media their cluster's most frequent label at a threshold (level): dry_run answers 200 with the counts; otherwise a LABEL_PROPAGATION task starts (202 {task_id}), which blocks snapshot creation while it runs */
        post: operations["postDatasetLabelsPropagate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/select": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Choose n media (or a fraction) for a labelling budget: diverse (greedy k-center), representative (clusters in proportion to size) or uncertain (a numeric custom field, highest first), optionally among an Explore query's matches; a SELECTION task (202 {task_id}) tags them (default tag 'selected') or clones them into a new dataset named `name` */
        post: operations["postDatasetSelect"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/custom_metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import custom metadata: multipart field 'file' (CSV with a header, JSON lines or Parquet) with a key column media_id or file_name; other columns become typed fields (string, number, boolean, datetime, string_list); re-importing updates them. 202 {task_id} of a CUSTOM_METADATA task; 400 and nothing changed for a file without a key column, with a type conflict, or too large */
        post: operations["postDatasetCustomMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/custom_metadata/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dataset's custom fields and their types */
        get: operations["getDatasetCustomMetadataSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/custom_metadata/imports/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An import task with its report: rows matched, unmatched and rejected (with reasons) */
        get: operations["getDatasetCustomMetadataImportsByTaskId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's notifications, newest first; increment offset by limit for the next page (pages past the end are empty) */
        get: operations["getNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/unread-count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many of the caller's notifications are unread: a bare integer */
        get: operations["getNotificationsUnreadCount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/{notification_id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark one notification read; 404 when it is missing, not the caller’s, or already read */
        post: operations["postNotificationsRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/read-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark all the caller's unread notifications read, or only one dataset's */
        post: operations["postNotificationsReadAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-Sent Events until the client disconnects: `event: notification` (`id:` = its sequence number, `data:` = the notification JSON) and `event: ping` every 3 s (`data: {"time": …}`); every data line is one JSON object. Reconnect with Last-Event-ID to receive what was missed. */
        get: operations["getNotificationsStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/explore/{dataset_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Clusters of the dataset at a granularity level, filtered, or ranked by similarity to an anchor; 100 clusters a page */
        get: operations["getExploreByDatasetId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/search-image-similarity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload an image (multipart field 'file', optional 'bounding_box' as x,y,width,height in its pixels) to use as an Explore anchor */
        post: operations["postDatasetSearchImageSimilarity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/media/{media_id}/duplicates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The other media in this media's duplicate group (its level-0 cluster when that has more than one member) */
        get: operations["getDatasetMediaDuplicates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/issues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many media of the dataset have each issue type, and its corrupt files with the reason each failed to decode */
        get: operations["getDatasetIssues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/dedup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove duplicates, keeping one media of each group by a rule: dry_run answers 200 with the groups and their keepers (paged); otherwise a DEDUP task starts (202 {task_id}) that snapshots the dataset ("Before dedup …"; restore it to undo) and makes a version without the others, or with tag_only tags them `duplicate` */
        post: operations["postDatasetDedup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/leakage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Find near-duplicates across this dataset and another (other_dataset_id), or across the splits of a custom field (split_field): a LEAKAGE task (202, Location) whose result is read at GET …/leakage/{task_id}; with tag, the leaked media are tagged */
        post: operations["postDatasetLeakage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/leakage/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A leakage run's result: per compared pair of sides, each side's media, leaked media and their share; 409 until its task is COMPLETED */
        get: operations["getDatasetLeakageByTaskId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/leakage/{task_id}/pairs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of a leakage run's pairs, most similar first: both media (id, file name, dataset, thumbnail link) and their similarity */
        get: operations["getDatasetLeakagePairs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/label_errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Score every labelled media against its k nearest labelled neighbours and its label's centroid: a LABEL_ERRORS task (202 {task_id}) that writes mislabel_score, suggested_label and class_outlier_score with a new head version (Explore issue_type mislabels, class_outliers). With target objects (or all) it scores the detected objects the same way, objects against objects (Explore entity_type=OBJECTS) */
        post: operations["postDatasetLabelErrors"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/map": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The embedding map of the dataset's current version: its bounds and a page of points (media, x, y, cluster), optionally inside a rectangle */
        get: operations["getDatasetMap"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dataset/{dataset_id}/map/selection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The media inside a lasso (polygon) or rectangle on the embedding map: their count, a page of ids, and the same selection as a vql filter */
        post: operations["postDatasetMapSelection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every error: `{"detail": "..."}` */
        Error: {
            detail: string;
        };
        Dataset: {
            /** Format: uuid */
            id: string;
            display_name: string;
            description: string;
            /** @enum {string} */
            status_new: "READY" | "READ ONLY" | "PARTIAL INDEX" | "INDEXING" | "ERROR";
            /** @description Legacy status, being retired: read status_new */
            status: string;
            progress: number;
            n_images: number;
            n_videos: number;
            n_objects: number;
            fatal_error_msg: string | null;
            /** Format: uuid */
            source_dataset_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description E-mail of the owner */
            created_by: string;
        };
        Task: {
            /** Format: uuid */
            task_id: string;
            /** Format: uuid */
            dataset_id: string;
            dataset_name: string;
            /** @description READY, READ_ONLY, PARTIAL_INDEX, INDEXING or ERROR */
            dataset_status: string;
            /** @description E-mail of the user who started the task */
            created_by: string;
            /** @enum {string} */
            task_type: "DATASET_CREATION" | "MEDIA_ADDITION" | "REINDEX" | "ENRICHMENT" | "CUSTOM_METADATA" | "SNAPSHOT_RESTORE" | "SNAPSHOT_CLONE" | "LABEL_PROPAGATION" | "DEDUP" | "SELECTION" | "LEAKAGE" | "LABEL_ERRORS";
            /** @enum {string} */
            status: "INITIALIZING" | "RUNNING" | "COMPLETED" | "FAILED" | "ABORTED";
            status_message: string;
            progress_percentage: number | null;
            error_message: string | null;
            /** Format: date-time */
            start_time: string;
            /** Format: date-time */
            end_time: string | null;
        };
        AccessEntry: {
            /** Format: uuid */
            user_id: string;
            email: string;
            /** @enum {string} */
            role: "owner" | "editor" | "viewer";
            /** Format: date-time */
            granted_at: string | null;
        };
        Snapshot: {
            /** Format: uuid */
            snapshot_id: string;
            snapshot_name: string;
            /** @description Name of the dataset the snapshot belongs to */
            source_dataset_name: string;
            /** Format: date-time */
            created_at: string;
            /** @description E-mail of the creator */
            created_by: string;
            n_images: number;
            n_videos: number;
            description: string;
            /** @enum {string} */
            reason: "manual" | "creation" | "clone";
            /** Format: uuid */
            training_model_id: string | null;
            training_model_name: string | null;
            is_current: boolean;
            is_restoring: boolean;
        };
        SavedView: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            dataset_id: string;
            name: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            created_by: {
                /** Format: uuid */
                user_id: string;
                email: string;
            };
            filters: {
                /**
                 * @description Cluster granularity: 0 = near-duplicates (finest) … 4 = broad similarity
                 * @default 0
                 */
                threshold: number;
                /**
                 * @default IMAGES
                 * @enum {string}
                 */
                entity_type: "IMAGES" | "OBJECTS";
                /**
                 * Format: uuid
                 * @description Similarity search: a media id of the dataset, or an UPLOAD anchor id
                 */
                anchor_media_id?: string;
                /**
                 * @description MEDIA (default) or UPLOAD (from search-image-similarity)
                 * @enum {string}
                 */
                anchor_type?: "MEDIA" | "UPLOAD";
                /**
                 * @description Default: relevance with an anchor or a semantic query, else size
                 * @enum {string}
                 */
                sort_by?: "size" | "uniqueness" | "relevance";
                /** @description JSON array of AND-ed filters: text (fts | semantic), labels (one_of), tags (is), issues, duplicates, uniqueness, custom ({field, op: eq|ne|gt|gte|lt|lte|between|contains|exists, value}), map ({op: within, value: polygon [[x, y], …] on the embedding map}) */
                vql?: string;
                /** @description Substring of the file name, case-insensitive */
                file_name?: string;
                /** @description duplicates, exact_duplicates, outliers, blur, dark, bright, grayscale, low_information, odd_aspect_ratio, odd_size, mislabels or class_outliers (docs/curation.md); with entity_type=OBJECTS, mislabels and class_outliers are the objects own flags */
                issue_type?: string;
                min_uniqueness?: string;
                max_uniqueness?: string;
                /** @description IMAGE, VIDEO_FRAME or VIDEO (a video is listed through its frames); comma-separated */
                media_type?: string;
                /** @description Text search; with textual_similarity_threshold it is semantic */
                caption?: string;
                textual_similarity_threshold?: string;
                /** @description Comma-separated; media with any of them */
                labels?: string;
                /** @description Comma-separated; media with any of them */
                tags?: string;
            };
            /** @description What the view matches in the dataset's current version */
            stats: {
                n_images: number;
                n_video_frames: number;
                /** @description Videos with at least one matching frame */
                n_videos: number;
                /** @description Clusters at the view threshold holding a match */
                n_clusters: number;
            } | null;
            /** @description Matching media (images and video frames); null while the dataset has no index or the anchor is gone */
            total_results: number | null;
            monitoring_enabled: boolean;
            alerting_enabled: boolean;
            notify_emails: string[];
        };
        Notification: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            user_id: string;
            /** @description saved_view for alerts */
            entity_type: string;
            /**
             * Format: uuid
             * @description The saved view that alerted
             */
            entity_id: string;
            title: string;
            message: string;
            metadata: {
                /** Format: uuid */
                batch_id: string;
                is_alert: boolean;
                view_name: string;
                dataset_name: string;
                /** @description New media of the batch that match the view */
                result_count: number;
            } & {
                [key: string]: unknown;
            };
            /** Format: uuid */
            dataset_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            read_at: string | null;
        };
        EnrichmentModel: {
            id: string;
            name: string;
            /** @enum {string} */
            type: "OBJECT_DETECTION" | "CAPTION_OBJECTS" | "CAPTION_IMAGES" | "OCR_TEXT" | "FACE_DETECTION";
            /** @enum {string} */
            status: "Active" | "Coming Soon";
            vendor: string;
            description: string;
            dependencies: ("OBJECT_DETECTION" | "CAPTION_OBJECTS" | "CAPTION_IMAGES" | "OCR_TEXT" | "FACE_DETECTION")[] | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example # HELP loupe_tasks_total Tasks by type and status
                     *     # TYPE loupe_tasks_total gauge
                     *     loupe_tasks_total{task_type="REINDEX",status="COMPLETED"} 4
                     */
                    "text/plain": string;
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
        };
    };
    getReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "sweeps": {
                     *         "blobs": {
                     *           "runs": 12,
                     *           "failures": 0,
                     *           "last_error_at": null
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ready";
                        sweeps?: {
                            [key: string]: {
                                runs: number;
                                failures: number;
                                /** Format: date-time */
                                last_error_at: string | null;
                            };
                        };
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Database unreachable"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebPageSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
        };
    };
    getWebPageDatasets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
        };
    };
    getWebPageDatasetsByPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                "*": string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
        };
    };
    getWebPageTasks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
        };
    };
    getWebPageNotifications: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
        };
    };
    getRoot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "Loupe",
                     *       "version": "0.1.0",
                     *       "docs": "/docs",
                     *       "openapi": "/docs/json",
                     *       "health": "/health"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        name: "Loupe";
                        version: string;
                        /** @enum {string} */
                        docs: "/docs";
                        /** @enum {string} */
                        openapi: "/docs/json";
                        /** @enum {string} */
                        health: "/health";
                    };
                };
            };
        };
    };
    postAuthSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    api_key: string;
                    api_secret: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *       "email": "ana@example.com"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        user_id: string;
                        email: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many failed authentication attempts; retry in 60 s"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAuthSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *       "email": "ana@example.com"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        user_id: string;
                        email: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *       "email": "ana@example.com",
                     *       "api_key": "lk_3k9XbQ2mWv",
                     *       "api_secret": "ls_Qm8f2Kp0aZr7Yt1Vn4Hc6Jd9"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        user_id: string;
                        email: string;
                        api_key: string;
                        /** @description Shown once; sign your JWTs with it (HS256, kid = sub = api_key, iss = "sdk") */
                        api_secret: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIngestionNewDataset: {
        parameters: {
            query?: {
                dataset_name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        dataset_id: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Exactly one media source must be provided: files[], s3_uri, or archive"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIngestionDataFiles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "trans_id": 1
                     *     }
                     */
                    "application/json": {
                        trans_id: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIngestionDataFilesByTransId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                trans_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @description Repeat the field 'files' (not 'files[]') for each file */
                    files: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "trans_id": 1,
                     *       "files": [
                     *         {
                     *           "file_name": "dog.jpg",
                     *           "media_kind": "IMAGE",
                     *           "format": "jpeg",
                     *           "size": 183204
                     *         },
                     *         {
                     *           "file_name": "street.mp4",
                     *           "media_kind": "VIDEO",
                     *           "format": "mp4",
                     *           "size": 4812330
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        trans_id: number;
                        files: {
                            file_name: string;
                            media_kind: string;
                            format: string;
                            size: number;
                        }[];
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Exactly one media source must be provided: files[], s3_uri, or archive"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many files in one request: the limit is 500; send them in batches"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postIngestionProcessFilesByTransId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                trans_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        dataset_id: string;
                        /** Format: uuid */
                        task_id: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Exactly one media source must be provided: files[], s3_uri, or archive"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetByDatasetId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "display_name": "street-photos",
                     *       "description": "",
                     *       "status_new": "READY",
                     *       "status": "READY",
                     *       "progress": 100,
                     *       "n_images": 1240,
                     *       "n_videos": 3,
                     *       "n_objects": 0,
                     *       "fatal_error_msg": null,
                     *       "source_dataset_id": null,
                     *       "created_at": "2026-01-15T09:30:00.000Z",
                     *       "created_by": "ana@example.com"
                     *     }
                     */
                    "application/json": components["schemas"]["Dataset"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDatasetByDatasetId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchDatasetByDatasetId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    display_name?: string;
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "display_name": "street-photos",
                     *       "description": "Photos from the spring shoot",
                     *       "status_new": "READY",
                     *       "status": "READY",
                     *       "progress": 100,
                     *       "n_images": 1240,
                     *       "n_videos": 3,
                     *       "n_objects": 0,
                     *       "fatal_error_msg": null,
                     *       "source_dataset_id": null,
                     *       "created_at": "2026-01-15T09:30:00.000Z",
                     *       "created_by": "ana@example.com"
                     *     }
                     */
                    "application/json": components["schemas"]["Dataset"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasets: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *         "display_name": "street-photos",
                     *         "description": "",
                     *         "status_new": "READY",
                     *         "status": "READY",
                     *         "progress": 100,
                     *         "n_images": 1240,
                     *         "n_videos": 3,
                     *         "n_objects": 0,
                     *         "fatal_error_msg": null,
                     *         "source_dataset_id": null,
                     *         "created_at": "2026-01-15T09:30:00.000Z",
                     *         "created_by": "ana@example.com"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Dataset"][];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @description Who to share with */
                    user_email: string;
                    /**
                     * @default viewer
                     * @enum {string}
                     */
                    role?: "viewer" | "editor";
                };
                "application/x-www-form-urlencoded": {
                    /** @description Who to share with */
                    user_email: string;
                    /**
                     * @default viewer
                     * @enum {string}
                     */
                    role?: "viewer" | "editor";
                };
                "application/json": {
                    /** @description Who to share with */
                    user_email: string;
                    /**
                     * @default viewer
                     * @enum {string}
                     */
                    role?: "viewer" | "editor";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *       "email": "ben@example.com",
                     *       "role": "viewer",
                     *       "granted_at": "2026-01-15T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["AccessEntry"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Exactly one media source must be provided: files[], s3_uri, or archive"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putManageInvite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    grant_to_user_email: string;
                    /**
                     * @default viewer
                     * @enum {string}
                     */
                    role?: "viewer" | "editor";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *       "email": "ben@example.com",
                     *       "role": "viewer",
                     *       "granted_at": "2026-01-15T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["AccessEntry"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Exactly one media source must be provided: files[], s3_uri, or archive"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getManageShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "users": [
                     *         {
                     *           "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *           "email": "ana@example.com",
                     *           "role": "owner",
                     *           "granted_at": null
                     *         },
                     *         {
                     *           "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *           "email": "ben@example.com",
                     *           "role": "viewer",
                     *           "granted_at": "2026-01-15T09:30:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        users: components["schemas"]["AccessEntry"][];
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteManageShare: {
        parameters: {
            query: {
                user_email: string;
            };
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTasks: {
        parameters: {
            query?: {
                dataset_id?: string;
                dataset_name?: string;
                task_type?: "DATASET_CREATION" | "MEDIA_ADDITION" | "REINDEX" | "ENRICHMENT" | "CUSTOM_METADATA" | "SNAPSHOT_RESTORE" | "SNAPSHOT_CLONE" | "LABEL_PROPAGATION" | "DEDUP" | "SELECTION" | "LEAKAGE" | "LABEL_ERRORS";
                task_status?: "INITIALIZING" | "RUNNING" | "COMPLETED" | "FAILED" | "ABORTED";
                /** @description E-mail of the initiator */
                created_by?: string;
                /** @description Tasks started on or after */
                start_time_from?: string;
                /** @description Tasks started on or before */
                start_time_to?: string;
                sort_by?: "start_time" | "status" | "task_type" | "dataset_name" | "dataset_id" | "created_by";
                sort_order?: "asc" | "desc";
                page?: number;
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tasks": [
                     *         {
                     *           "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b",
                     *           "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *           "dataset_name": "street-photos",
                     *           "dataset_status": "READ_ONLY",
                     *           "created_by": "ana@example.com",
                     *           "task_type": "MEDIA_ADDITION",
                     *           "status": "RUNNING",
                     *           "status_message": "Processing 48 of 50 file(s)",
                     *           "progress_percentage": 96,
                     *           "error_message": null,
                     *           "start_time": "2026-01-15T09:30:00.000Z",
                     *           "end_time": null
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "page_size": 20
                     *     }
                     */
                    "application/json": {
                        tasks: components["schemas"]["Task"][];
                        total: number;
                        page: number;
                        page_size: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTasksFilters: {
        parameters: {
            query?: {
                /** @description Tasks started on or after */
                start_time_from?: string;
                /** @description Tasks started on or before */
                start_time_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "dataset_names": [
                     *         "street-photos"
                     *       ],
                     *       "dataset_ids": [
                     *         "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f"
                     *       ],
                     *       "task_types": [
                     *         "DATASET_CREATION",
                     *         "MEDIA_ADDITION"
                     *       ],
                     *       "created_by": [
                     *         "ana@example.com"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        dataset_names: string[];
                        dataset_ids: string[];
                        task_types: string[];
                        created_by: string[];
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTasksByTaskId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b",
                     *       "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "dataset_name": "street-photos",
                     *       "dataset_status": "READ_ONLY",
                     *       "created_by": "ana@example.com",
                     *       "task_type": "MEDIA_ADDITION",
                     *       "status": "RUNNING",
                     *       "status_message": "Processing 48 of 50 file(s)",
                     *       "progress_percentage": 96,
                     *       "error_message": null,
                     *       "start_time": "2026-01-15T09:30:00.000Z",
                     *       "end_time": null
                     *     }
                     */
                    "application/json": components["schemas"]["Task"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTasksAbort: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b",
                     *       "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "dataset_name": "street-photos",
                     *       "dataset_status": "READ_ONLY",
                     *       "created_by": "ana@example.com",
                     *       "task_type": "DATASET_CREATION",
                     *       "status": "ABORTED",
                     *       "status_message": "Aborted",
                     *       "progress_percentage": 96,
                     *       "error_message": null,
                     *       "start_time": "2026-01-15T09:30:00.000Z",
                     *       "end_time": "2026-01-15T09:31:12.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Task"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTasksRetry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b",
                     *       "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "dataset_name": "street-photos",
                     *       "dataset_status": "READ_ONLY",
                     *       "created_by": "ana@example.com",
                     *       "task_type": "DATASET_CREATION",
                     *       "status": "INITIALIZING",
                     *       "status_message": "Queued",
                     *       "progress_percentage": 0,
                     *       "error_message": null,
                     *       "start_time": "2026-01-15T09:30:00.000Z",
                     *       "end_time": null
                     *     }
                     */
                    "application/json": components["schemas"]["Task"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Exactly one media source must be provided: files[], s3_uri, or archive"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetMedia: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                media_type?: "IMAGE" | "VIDEO" | "VIDEO_FRAME";
            };
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "media": [
                     *         {
                     *           "media_id": "8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92",
                     *           "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *           "media_type": "IMAGE",
                     *           "file_name": "dog.jpg",
                     *           "format": "jpeg",
                     *           "mime": "image/jpeg",
                     *           "file_size": 183204,
                     *           "width": 1024,
                     *           "height": 768,
                     *           "duration_seconds": null,
                     *           "parent_media_id": null,
                     *           "frame_timestamp": null,
                     *           "exif": {
                     *             "Make": "Canon"
                     *           },
                     *           "phash": "c3d4e5f60718293a",
                     *           "blur": 0.12,
                     *           "brightness": 0.54,
                     *           "quality_flags": [],
                     *           "uniqueness_score": 0.81,
                     *           "is_outlier": false,
                     *           "duplicate_group_id": null,
                     *           "cluster_ids": [
                     *             "a05d3b6d-7e9f-4b10-8c23-6f7a8b9cadb4"
                     *           ],
                     *           "tags": [
                     *             "reviewed"
                     *           ],
                     *           "label": "dog",
                     *           "custom_fields": {
                     *             "score": 0.9
                     *           },
                     *           "caption": "a dog on a lawn",
                     *           "objects": [
                     *             {
                     *               "object_id": "9f4c2a5c-6d8e-4a0f-9b12-5e6f7a8b9ca3",
                     *               "label": "dog",
                     *               "score": 0.97,
                     *               "bounding_box": {
                     *                 "x": 120,
                     *                 "y": 80,
                     *                 "width": 400,
                     *                 "height": 380
                     *               },
                     *               "caption": null
                     *             }
                     *           ],
                     *           "created_at": "2026-01-15T09:30:00.000Z",
                     *           "media_uri": "/api/v1/dataset/5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f/media/8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92/original",
                     *           "media_thumb_uri": "/api/v1/dataset/5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f/media/8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92/thumbnail",
                     *           "media_preview_uri": "/api/v1/dataset/5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f/media/8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92/preview",
                     *           "frames": []
                     *         }
                     *       ],
                     *       "total": 1243
                     *     }
                     */
                    "application/json": {
                        media: {
                            /** Format: uuid */
                            media_id: string;
                            /** Format: uuid */
                            dataset_id: string;
                            /** @description IMAGE, VIDEO or VIDEO_FRAME */
                            media_type: string;
                            file_name: string;
                            format: string;
                            mime: string;
                            file_size: number;
                            width: number | null;
                            height: number | null;
                            duration_seconds: number | null;
                            parent_media_id: string | null;
                            frame_timestamp: number | null;
                            exif: {
                                [key: string]: unknown;
                            } | null;
                            phash: string | null;
                            blur: number | null;
                            brightness: number | null;
                            quality_flags: string[];
                            /** @description 0 = exact duplicates … 1 = the most isolated media of the version */
                            uniqueness_score: number | null;
                            is_outlier: boolean;
                            /** @description Shared by near-duplicates (the level-0 cluster when it has several members) */
                            duplicate_group_id: string | null;
                            /** @description Cluster per Explore threshold 0 (finest) … 4 (coarsest) */
                            cluster_ids: (string | null)[];
                            tags: string[];
                            label: string | null;
                            /** @description Imported custom metadata: field → value (types: custom_metadata/schema) */
                            custom_fields: {
                                [key: string]: unknown;
                            };
                            /** @description Written by an image captioner (enrichment) */
                            caption: string | null;
                            /** @description Detected objects (enrichment); empty when not enriched */
                            objects: {
                                /** Format: uuid */
                                object_id: string;
                                /** @description The object's class (a user's, else the detector's) */
                                label: string;
                                /** @description The detection score */
                                score: number;
                                /** @description The object's box in the media's pixels (x, y = top left) */
                                bounding_box: {
                                    x: number;
                                    y: number;
                                    width: number;
                                    height: number;
                                };
                                caption: string | null;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            /** @description Signed link to the original bytes, valid one hour */
                            media_uri: string;
                            media_thumb_uri: string | null;
                            media_preview_uri: string | null;
                            frames: {
                                media_id: string;
                                frame_timestamp: number;
                            }[];
                        }[];
                        total: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetMediaByMediaId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                media_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "media_id": "8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92",
                     *       "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "media_type": "IMAGE",
                     *       "file_name": "dog.jpg",
                     *       "format": "jpeg",
                     *       "mime": "image/jpeg",
                     *       "file_size": 183204,
                     *       "width": 1024,
                     *       "height": 768,
                     *       "duration_seconds": null,
                     *       "parent_media_id": null,
                     *       "frame_timestamp": null,
                     *       "exif": {
                     *         "Make": "Canon"
                     *       },
                     *       "phash": "c3d4e5f60718293a",
                     *       "blur": 0.12,
                     *       "brightness": 0.54,
                     *       "quality_flags": [],
                     *       "uniqueness_score": 0.81,
                     *       "is_outlier": false,
                     *       "duplicate_group_id": null,
                     *       "cluster_ids": [
                     *         "a05d3b6d-7e9f-4b10-8c23-6f7a8b9cadb4"
                     *       ],
                     *       "tags": [
                     *         "reviewed"
                     *       ],
                     *       "label": "dog",
                     *       "custom_fields": {
                     *         "score": 0.9
                     *       },
                     *       "caption": "a dog on a lawn",
                     *       "objects": [
                     *         {
                     *           "object_id": "9f4c2a5c-6d8e-4a0f-9b12-5e6f7a8b9ca3",
                     *           "label": "dog",
                     *           "score": 0.97,
                     *           "bounding_box": {
                     *             "x": 120,
                     *             "y": 80,
                     *             "width": 400,
                     *             "height": 380
                     *           },
                     *           "caption": null
                     *         }
                     *       ],
                     *       "created_at": "2026-01-15T09:30:00.000Z",
                     *       "media_uri": "/api/v1/dataset/5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f/media/8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92/original",
                     *       "media_thumb_uri": "/api/v1/dataset/5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f/media/8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92/thumbnail",
                     *       "media_preview_uri": "/api/v1/dataset/5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f/media/8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92/preview",
                     *       "frames": []
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        media_id: string;
                        /** Format: uuid */
                        dataset_id: string;
                        /** @description IMAGE, VIDEO or VIDEO_FRAME */
                        media_type: string;
                        file_name: string;
                        format: string;
                        mime: string;
                        file_size: number;
                        width: number | null;
                        height: number | null;
                        duration_seconds: number | null;
                        parent_media_id: string | null;
                        frame_timestamp: number | null;
                        exif: {
                            [key: string]: unknown;
                        } | null;
                        phash: string | null;
                        blur: number | null;
                        brightness: number | null;
                        quality_flags: string[];
                        /** @description 0 = exact duplicates … 1 = the most isolated media of the version */
                        uniqueness_score: number | null;
                        is_outlier: boolean;
                        /** @description Shared by near-duplicates (the level-0 cluster when it has several members) */
                        duplicate_group_id: string | null;
                        /** @description Cluster per Explore threshold 0 (finest) … 4 (coarsest) */
                        cluster_ids: (string | null)[];
                        tags: string[];
                        label: string | null;
                        /** @description Imported custom metadata: field → value (types: custom_metadata/schema) */
                        custom_fields: {
                            [key: string]: unknown;
                        };
                        /** @description Written by an image captioner (enrichment) */
                        caption: string | null;
                        /** @description Detected objects (enrichment); empty when not enriched */
                        objects: {
                            /** Format: uuid */
                            object_id: string;
                            /** @description The object's class (a user's, else the detector's) */
                            label: string;
                            /** @description The detection score */
                            score: number;
                            /** @description The object's box in the media's pixels (x, y = top left) */
                            bounding_box: {
                                x: number;
                                y: number;
                                width: number;
                                height: number;
                            };
                            caption: string | null;
                        }[];
                        /** Format: date-time */
                        created_at: string;
                        /** @description Signed link to the original bytes, valid one hour */
                        media_uri: string;
                        media_thumb_uri: string | null;
                        media_preview_uri: string | null;
                        frames: {
                            media_id: string;
                            frame_timestamp: number;
                        }[];
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetMediaByMediaIdAndVariant: {
        parameters: {
            query?: {
                expires?: number;
                signature?: string;
            };
            header?: never;
            path: {
                dataset_id: string;
                media_id: string;
                variant: "original" | "thumbnail" | "preview";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bytes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                    "video/*": string;
                };
            };
            /** @description The requested range of the bytes */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                    "video/*": string;
                };
            };
            /** @description Default Response */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Default Response */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Requested range not satisfiable"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetAddMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @description Direct upload: repeat the field 'files' (not 'files[]') for each file */
                    files?: string[];
                    /**
                     * Format: binary
                     * @description One .zip, .tar or .tar.gz archive of media
                     */
                    archive?: string;
                    /**
                     * @description Object-storage folder, or a .csv, .parquet or .txt manifest listing media
                     * @example s3://bucket/new-photos/
                     */
                    s3_uri?: string;
                    /**
                     * @description Run a full reindex after the batch
                     * @default false
                     */
                    auto_reindex?: boolean;
                    /** @description IAM role ARN to assume for reading the bucket */
                    assume_role?: string;
                    /** @description Overrides the calculated number of videos processed at once */
                    batch_n_videos?: number;
                    /** @description Overrides the calculated number of images processed at once */
                    batch_n_images?: number;
                    /** @description Overrides the calculated number of objects processed at once */
                    batch_n_objects?: number;
                    /** @description Recorded only: a self-hosted install has no spot instances */
                    use_spot?: boolean;
                };
                "application/x-www-form-urlencoded": {
                    /**
                     * @description Object-storage folder, or a .csv, .parquet or .txt manifest listing media
                     * @example s3://bucket/new-photos/
                     */
                    s3_uri?: string;
                    /**
                     * @description Run a full reindex after the batch
                     * @default false
                     */
                    auto_reindex?: boolean;
                    /** @description IAM role ARN to assume for reading the bucket */
                    assume_role?: string;
                    /** @description Overrides the calculated number of videos processed at once */
                    batch_n_videos?: number;
                    /** @description Overrides the calculated number of images processed at once */
                    batch_n_images?: number;
                    /** @description Overrides the calculated number of objects processed at once */
                    batch_n_objects?: number;
                    /** @description Recorded only: a self-hosted install has no spot instances */
                    use_spot?: boolean;
                };
            };
        };
        responses: {
            /** @description Empty body */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{"detail": "..."}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Exactly one media source must be provided: files[], s3_uri, or archive"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many files in one request: the limit is 500; send them in batches"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetReindex: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Empty body */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProcessAddMedia: {
        parameters: {
            query: {
                dataset_id: string;
                path: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Empty body */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{"detail": "..."}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Exactly one media source must be provided: files[], s3_uri, or archive"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal server error"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "snapshot_id": "b16e4c7e-8f0a-4c21-9d34-7a8b9cadbec5",
                     *         "snapshot_name": "before relabelling",
                     *         "source_dataset_name": "street-photos",
                     *         "created_at": "2026-01-15T09:30:00.000Z",
                     *         "created_by": "ana@example.com",
                     *         "n_images": 1240,
                     *         "n_videos": 3,
                     *         "description": "",
                     *         "reason": "manual",
                     *         "training_model_id": null,
                     *         "training_model_name": null,
                     *         "is_current": true,
                     *         "is_restoring": false
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Snapshot"][];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "snapshot_id": "b16e4c7e-8f0a-4c21-9d34-7a8b9cadbec5",
                     *       "snapshot_name": "before relabelling",
                     *       "source_dataset_name": "street-photos",
                     *       "created_at": "2026-01-15T09:30:00.000Z",
                     *       "created_by": "ana@example.com",
                     *       "n_images": 1240,
                     *       "n_videos": 3,
                     *       "description": "",
                     *       "reason": "manual",
                     *       "training_model_id": null,
                     *       "training_model_name": null,
                     *       "is_current": true,
                     *       "is_restoring": false
                     *     }
                     */
                    "application/json": components["schemas"]["Snapshot"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDatasetSnapshotBySnapshotId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                snapshot_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Empty body */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchDatasetSnapshotBySnapshotId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                snapshot_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "snapshot_id": "b16e4c7e-8f0a-4c21-9d34-7a8b9cadbec5",
                     *       "snapshot_name": "before relabelling",
                     *       "source_dataset_name": "street-photos",
                     *       "created_at": "2026-01-15T09:30:00.000Z",
                     *       "created_by": "ana@example.com",
                     *       "n_images": 1240,
                     *       "n_videos": 3,
                     *       "description": "Labels as reviewed on Monday",
                     *       "reason": "manual",
                     *       "training_model_id": null,
                     *       "training_model_name": null,
                     *       "is_current": true,
                     *       "is_restoring": false
                     *     }
                     */
                    "application/json": components["schemas"]["Snapshot"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetSnapshotRestore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                snapshot_id: string | "current";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Empty body */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetSnapshotClone: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                snapshot_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Empty body */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetExportContextAsync: {
        parameters: {
            query: {
                /** @description Name of the output ZIP file */
                file_name: string;
                /** @description json or parquet (spec); csv and coco are Loupe extensions. json: metadata.json as the hosted service documents it, {info, media_items: [{media_id, media_type: image|video_frame, file_name, file_path, file_size: '48.96KB', height, width, url, cluster_id, uniqueness_score, metadata_items: [{type, properties}]}, …]}, then Loupe's columns; parquet and csv: the flat typed columns */
                export_format: "json" | "parquet" | "csv" | "coco";
                include_images?: boolean;
            };
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "e4917fab-1c3d-4f54-8a67-adbecfd0e1f8"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The export task id, for export_status
                         */
                        id: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetExportEntitiesAsync: {
        parameters: {
            query: {
                /** @description json or parquet (spec); csv and coco are Loupe extensions. json: metadata.json as the hosted service documents it, {info, media_items: [{media_id, media_type: image|video_frame, file_name, file_path, file_size: '48.96KB', height, width, url, cluster_id, uniqueness_score, metadata_items: [{type, properties}]}, …]}, then Loupe's columns; parquet and csv: the flat typed columns */
                export_format: "json" | "parquet" | "csv" | "coco";
                include_images?: boolean;
                file_name?: string;
            };
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    media_selection: ({
                        /** @enum {string} */
                        type: "media";
                        payload: {
                            media_ids: string[];
                        };
                    } | {
                        /** @enum {string} */
                        type: "cluster";
                        payload: {
                            /** Format: uuid */
                            cluster_id: string;
                            cluster_filters?: {
                                entity_type?: string;
                            };
                            exclude_media_ids?: string[];
                        };
                    })[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "e4917fab-1c3d-4f54-8a67-adbecfd0e1f8"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The export task id, for export_status
                         */
                        id: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetExportStatus: {
        parameters: {
            query: {
                export_task_id: string;
            };
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "COMPLETED",
                     *       "download_uri": "http://localhost:8080/api/v1/exports/e4917fab-1c3d-4f54-8a67-adbecfd0e1f8/download?expires=1768470000&signature=9b2f",
                     *       "result_message": null,
                     *       "progress": 100
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "PENDING" | "COMPLETED" | "FAILED" | "REJECTED";
                        /** @description Signed, expiring link to the ZIP (COMPLETED only); no header needed */
                        download_uri: string | null;
                        result_message: string | null;
                        progress: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getExportsDownload: {
        parameters: {
            query?: {
                expires?: number;
                signature?: string;
            };
            header?: never;
            path: {
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ZIP archive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            /** @description The requested range of the archive */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            /** @description Default Response */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "The export archive has expired or was removed"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Requested range not satisfiable"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEnrichmentListModels: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "builtin-captioner",
                     *         "name": "Built-in captioner",
                     *         "type": "CAPTION_IMAGES",
                     *         "status": "Active",
                     *         "vendor": "Loupe",
                     *         "description": "Short captions of whole images",
                     *         "dependencies": []
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["EnrichmentModel"][];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEnrichmentContext: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "enrichment_context_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "status": "NEW",
                     *       "dataset_enrichment_models": {
                     *         "enrichment_models": {}
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        enrichment_context_id: string;
                        /**
                         * @description `NEW`: nothing applied yet
                         * @enum {string}
                         */
                        status: "NEW" | "IN_PROGRESS" | "COMPLETED" | "FAILED";
                        dataset_enrichment_models: {
                            /** @description Enrichment type → model id, for what was applied */
                            enrichment_models: {
                                [key: string]: string;
                            };
                        };
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetEnrichDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Enrichment type (a `type` from list_models) → model id (an `id` from list_models) */
                    enrichment_models: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "dataset_id": "6c1f9d2f-3a5b-4d7c-8e8f-2b3c4d5e6f70"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        dataset_id: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetViews: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "views": [
                     *         {
                     *           "id": "c27f5d8f-9a1b-4d32-8e45-8b9cadbecfd6",
                     *           "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *           "name": "blurry duplicates",
                     *           "created_at": "2026-01-15T09:30:00.000Z",
                     *           "updated_at": "2026-01-15T09:30:00.000Z",
                     *           "created_by": {
                     *             "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *             "email": "ana@example.com"
                     *           },
                     *           "filters": {
                     *             "threshold": 0,
                     *             "entity_type": "IMAGES",
                     *             "issue_type": "duplicates"
                     *           },
                     *           "stats": {
                     *             "n_images": 42,
                     *             "n_video_frames": 0,
                     *             "n_videos": 0,
                     *             "n_clusters": 17
                     *           },
                     *           "total_results": 17,
                     *           "monitoring_enabled": true,
                     *           "alerting_enabled": true,
                     *           "notify_emails": []
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        views: components["schemas"]["SavedView"][];
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetViews: {
        parameters: {
            query?: {
                /** @description Cluster granularity: 0 = near-duplicates (finest) … 4 = broad similarity */
                threshold?: number;
                entity_type?: "IMAGES" | "OBJECTS";
                /** @description Similarity search: a media id of the dataset, or an UPLOAD anchor id */
                anchor_media_id?: string;
                /** @description MEDIA (default) or UPLOAD (from search-image-similarity) */
                anchor_type?: "MEDIA" | "UPLOAD";
                /** @description Default: relevance with an anchor or a semantic query, else size */
                sort_by?: "size" | "uniqueness" | "relevance";
                /** @description JSON array of AND-ed filters: text (fts | semantic), labels (one_of), tags (is), issues, duplicates, uniqueness, custom ({field, op: eq|ne|gt|gte|lt|lte|between|contains|exists, value}), map ({op: within, value: polygon [[x, y], …] on the embedding map}) */
                vql?: string;
                /** @description Substring of the file name, case-insensitive */
                file_name?: string;
                /** @description duplicates, exact_duplicates, outliers, blur, dark, bright, grayscale, low_information, odd_aspect_ratio, odd_size, mislabels or class_outliers (docs/curation.md); with entity_type=OBJECTS, mislabels and class_outliers are the objects own flags */
                issue_type?: string;
                min_uniqueness?: string;
                max_uniqueness?: string;
                /** @description IMAGE, VIDEO_FRAME or VIDEO (a video is listed through its frames); comma-separated */
                media_type?: string;
                /** @description Text search; with textual_similarity_threshold it is semantic */
                caption?: string;
                textual_similarity_threshold?: string;
                /** @description Comma-separated; media with any of them */
                labels?: string;
                /** @description Comma-separated; media with any of them */
                tags?: string;
            };
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /**
                     * @description Evaluate the view on every new media batch; on unless set to false
                     * @default true
                     */
                    monitoring_enabled?: boolean;
                    /**
                     * @description Notify when a batch brings new results (with monitoring); on unless set to false
                     * @default true
                     */
                    alerting_enabled?: boolean;
                    /** @description Users alerted besides the view's creator; each must have access to the dataset */
                    notify_emails?: string[];
                };
                "application/x-www-form-urlencoded": {
                    name: string;
                    /**
                     * @description Evaluate the view on every new media batch; on unless set to false
                     * @default true
                     */
                    monitoring_enabled?: boolean;
                    /**
                     * @description Notify when a batch brings new results (with monitoring); on unless set to false
                     * @default true
                     */
                    alerting_enabled?: boolean;
                    /** @description Users alerted besides the view's creator; each must have access to the dataset */
                    notify_emails?: string[];
                };
                "multipart/form-data": {
                    name: string;
                    /** @default true */
                    monitoring_enabled?: boolean;
                    /** @default true */
                    alerting_enabled?: boolean;
                    /** @description One e-mail to alert (JSON takes a list) */
                    notify_emails?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "c27f5d8f-9a1b-4d32-8e45-8b9cadbecfd6",
                     *       "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "name": "blurry duplicates",
                     *       "created_at": "2026-01-15T09:30:00.000Z",
                     *       "updated_at": "2026-01-15T09:30:00.000Z",
                     *       "created_by": {
                     *         "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *         "email": "ana@example.com"
                     *       },
                     *       "filters": {
                     *         "threshold": 0,
                     *         "entity_type": "IMAGES",
                     *         "issue_type": "duplicates"
                     *       },
                     *       "stats": {
                     *         "n_images": 42,
                     *         "n_video_frames": 0,
                     *         "n_videos": 0,
                     *         "n_clusters": 17
                     *       },
                     *       "total_results": 17,
                     *       "monitoring_enabled": true,
                     *       "alerting_enabled": true,
                     *       "notify_emails": []
                     *     }
                     */
                    "application/json": components["schemas"]["SavedView"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetViewsByViewId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                view_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "c27f5d8f-9a1b-4d32-8e45-8b9cadbecfd6",
                     *       "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "name": "blurry duplicates",
                     *       "created_at": "2026-01-15T09:30:00.000Z",
                     *       "updated_at": "2026-01-15T09:30:00.000Z",
                     *       "created_by": {
                     *         "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *         "email": "ana@example.com"
                     *       },
                     *       "filters": {
                     *         "threshold": 0,
                     *         "entity_type": "IMAGES",
                     *         "issue_type": "duplicates"
                     *       },
                     *       "stats": {
                     *         "n_images": 42,
                     *         "n_video_frames": 0,
                     *         "n_videos": 0,
                     *         "n_clusters": 17
                     *       },
                     *       "total_results": 17,
                     *       "monitoring_enabled": true,
                     *       "alerting_enabled": true,
                     *       "notify_emails": []
                     *     }
                     */
                    "application/json": components["schemas"]["SavedView"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDatasetViewsByViewId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                view_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchDatasetViewsByViewId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                view_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    monitoring_enabled?: boolean;
                    alerting_enabled?: boolean;
                    filters?: {
                        /**
                         * @description Cluster granularity: 0 = near-duplicates (finest) … 4 = broad similarity
                         * @default 0
                         */
                        threshold?: number;
                        /**
                         * @default IMAGES
                         * @enum {string}
                         */
                        entity_type?: "IMAGES" | "OBJECTS";
                        /**
                         * Format: uuid
                         * @description Similarity search: a media id of the dataset, or an UPLOAD anchor id
                         */
                        anchor_media_id?: string;
                        /**
                         * @description MEDIA (default) or UPLOAD (from search-image-similarity)
                         * @enum {string}
                         */
                        anchor_type?: "MEDIA" | "UPLOAD";
                        /**
                         * @description Default: relevance with an anchor or a semantic query, else size
                         * @enum {string}
                         */
                        sort_by?: "size" | "uniqueness" | "relevance";
                        /** @description JSON array of AND-ed filters: text (fts | semantic), labels (one_of), tags (is), issues, duplicates, uniqueness, custom ({field, op: eq|ne|gt|gte|lt|lte|between|contains|exists, value}), map ({op: within, value: polygon [[x, y], …] on the embedding map}) */
                        vql?: string;
                        /** @description Substring of the file name, case-insensitive */
                        file_name?: string;
                        /** @description duplicates, exact_duplicates, outliers, blur, dark, bright, grayscale, low_information, odd_aspect_ratio, odd_size, mislabels or class_outliers (docs/curation.md); with entity_type=OBJECTS, mislabels and class_outliers are the objects own flags */
                        issue_type?: string;
                        min_uniqueness?: string;
                        max_uniqueness?: string;
                        /** @description IMAGE, VIDEO_FRAME or VIDEO (a video is listed through its frames); comma-separated */
                        media_type?: string;
                        /** @description Text search; with textual_similarity_threshold it is semantic */
                        caption?: string;
                        textual_similarity_threshold?: string;
                        /** @description Comma-separated; media with any of them */
                        labels?: string;
                        /** @description Comma-separated; media with any of them */
                        tags?: string;
                    };
                    /** @description Users alerted besides the view's creator; each must have access to the dataset */
                    notify_emails?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "c27f5d8f-9a1b-4d32-8e45-8b9cadbecfd6",
                     *       "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "name": "blurry duplicates (kitchen)",
                     *       "created_at": "2026-01-15T09:30:00.000Z",
                     *       "updated_at": "2026-01-15T09:30:00.000Z",
                     *       "created_by": {
                     *         "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *         "email": "ana@example.com"
                     *       },
                     *       "filters": {
                     *         "threshold": 0,
                     *         "entity_type": "IMAGES",
                     *         "issue_type": "duplicates"
                     *       },
                     *       "stats": {
                     *         "n_images": 42,
                     *         "n_video_frames": 0,
                     *         "n_videos": 0,
                     *         "n_clusters": 17
                     *       },
                     *       "total_results": 17,
                     *       "monitoring_enabled": true,
                     *       "alerting_enabled": true,
                     *       "notify_emails": []
                     *     }
                     */
                    "application/json": components["schemas"]["SavedView"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetMediaTags: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        /** @description The tags, and exactly one of media_ids, cluster_ids or query */
        requestBody: {
            content: {
                "application/json": {
                    tags: string[];
                    /** @description These media */
                    media_ids?: string[];
                    /** @description Every member of these clusters (any level) */
                    cluster_ids?: string[];
                    /** @description Every media an Explore query matches: its filter parameters (vql as text or as the array, file_name, issue_type, labels, tags, …) */
                    query?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "matched": 12,
                     *       "changed": 10
                     *     }
                     */
                    "application/json": {
                        /** @description Media the selection holds */
                        matched: number;
                        /** @description Media the edit changed; 0 makes no new version */
                        changed: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetMediaTagsRemove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        /** @description The tags, and exactly one of media_ids, cluster_ids or query */
        requestBody: {
            content: {
                "application/json": {
                    tags: string[];
                    /** @description These media */
                    media_ids?: string[];
                    /** @description Every member of these clusters (any level) */
                    cluster_ids?: string[];
                    /** @description Every media an Explore query matches: its filter parameters (vql as text or as the array, file_name, issue_type, labels, tags, …) */
                    query?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "matched": 12,
                     *       "changed": 10
                     *     }
                     */
                    "application/json": {
                        /** @description Media the selection holds */
                        matched: number;
                        /** @description Media the edit changed; 0 makes no new version */
                        changed: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putDatasetMediaLabel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        /** @description The label, and exactly one of media_ids, cluster_ids or query */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The class name; null removes the label */
                    label: string | null;
                    /** @description These media */
                    media_ids?: string[];
                    /** @description Every member of these clusters (any level) */
                    cluster_ids?: string[];
                    /** @description Every media an Explore query matches: its filter parameters (vql as text or as the array, file_name, issue_type, labels, tags, …) */
                    query?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "matched": 12,
                     *       "changed": 10
                     *     }
                     */
                    "application/json": {
                        /** @description Media the selection holds */
                        matched: number;
                        /** @description Media the edit changed; 0 makes no new version */
                        changed: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putDatasetObjectsLabel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Detected objects (object_id in Explore OBJECTS previews) */
                    object_ids: string[];
                    /** @description The object's class name; null gives it back its detected class */
                    label: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "matched": 12,
                     *       "changed": 10
                     *     }
                     */
                    "application/json": {
                        /** @description Media the selection holds */
                        matched: number;
                        /** @description Media the edit changed; 0 makes no new version */
                        changed: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetTags: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tags": [
                     *         {
                     *           "tag": "reviewed",
                     *           "count": 12
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        tags: {
                            tag: string;
                            count: number;
                        }[];
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetLabels: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "labels": [
                     *         {
                     *           "label": "dog",
                     *           "count": 31
                     *         }
                     *       ],
                     *       "unlabelled": 1209
                     *     }
                     */
                    "application/json": {
                        labels: {
                            label: string;
                            count: number;
                        }[];
                        /** @description Images and video frames without a label */
                        unlabelled: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetLabelsPropagate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Cluster granularity level, as Explore: 0 finest … 4 coarsest */
                    threshold: number;
                    /**
                     * @description Only count what would be labelled
                     * @default false
                     */
                    dry_run?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "clusters": 9,
                     *       "media": 54,
                     *       "ambiguous": 2
                     *     }
                     */
                    "application/json": {
                        /** @description Clusters whose unlabelled members would get their most frequent label */
                        clusters: number;
                        /** @description Unlabelled media that would be labelled */
                        media: number;
                        /** @description Clusters left alone: two labels tie for most frequent */
                        ambiguous: number;
                    };
                };
            };
            /** @description Default Response */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        task_id: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetSelect: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description How many media to choose (1 … the media to choose among); or give fraction */
                    n?: number;
                    /** @description The share of the media to choose, in (0, 1] (rounded, at least 1); or give n */
                    fraction?: number;
                    /** @description diverse: greedy k-center (farthest-first) on the centred embeddings; representative: picks per cluster in proportion to its size, members nearest the cluster's centroid first; uncertain: by the numeric custom field `field`, highest first */
                    strategy: string;
                    /** @description uncertain: a numeric custom field */
                    field?: string;
                    /** @description uncertain: desc (default, highest first) or asc */
                    order?: "desc" | "asc";
                    /** @description representative: the cluster level, as Explore (0 finest … 4 coarsest; default 0) */
                    threshold?: number;
                    /** @description Choose only among the media an Explore query matches: its filter parameters (vql as text or as the array, tags, labels, …), as tag-by-query takes them */
                    query?: {
                        [key: string]: unknown;
                    };
                    /** @description Leave out media carrying any of these tags (e.g. the tag of an earlier selection, to choose among the untagged) */
                    exclude_tags?: string[];
                    /** @description tag (default): tag the chosen media; clone: a new dataset holding only them */
                    action?: "tag" | "clone";
                    /** @description action tag: the tag (default 'selected') */
                    tag?: string;
                    /** @description action clone: the new dataset's name (required) */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        task_id: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetCustomMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description CSV with a header row, JSON lines or Parquet, with a media_id or file_name column
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The CUSTOM_METADATA task
                         */
                        task_id: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Exactly one media source must be provided: files[], s3_uri, or archive"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetCustomMetadataSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "fields": [
                     *         {
                     *           "name": "score",
                     *           "type": "number"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description The head version's custom fields (a restore brings its list back) */
                        fields: {
                            name: string;
                            /** @enum {string} */
                            type: "string" | "number" | "boolean" | "datetime" | "string_list";
                        }[];
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetCustomMetadataImportsByTaskId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b",
                     *       "status": "COMPLETED",
                     *       "status_message": "Imported 1240 row(s)",
                     *       "error_message": null,
                     *       "progress_percentage": 100,
                     *       "file_name": "scores.csv",
                     *       "key": "file_name",
                     *       "fields": [
                     *         {
                     *           "name": "score",
                     *           "type": "number"
                     *         }
                     *       ],
                     *       "report": {
                     *         "rows": 1241,
                     *         "matched": 1240,
                     *         "unmatched": 1,
                     *         "rejected": 0,
                     *         "rejections": [],
                     *         "unmatched_keys": [
                     *           "missing.jpg"
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        task_id: string;
                        status: string;
                        status_message: string;
                        error_message: string | null;
                        progress_percentage: number | null;
                        file_name: string;
                        /** @description media_id or file_name */
                        key: string;
                        fields: {
                            name: string;
                            /** @enum {string} */
                            type: "string" | "number" | "boolean" | "datetime" | "string_list";
                        }[];
                        report: ({
                            rows: number;
                            /** @description Rows whose key named media of the dataset */
                            matched: number;
                            unmatched: number;
                            /** @description Rows refused (a bad value, an empty key, a broken line); nothing of them is applied */
                            rejected: number;
                            /** @description The first 100 */
                            rejections: {
                                line: number;
                                reason: string;
                            }[];
                            /** @description The first 20 */
                            unmatched_keys: string[];
                        } & {
                            [key: string]: unknown;
                        }) | null;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNotifications: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                unread_only?: boolean;
                /** @description Only this dataset's notifications */
                dataset_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "notifications": [
                     *         {
                     *           "id": "d3806e9a-0b2c-4e43-9f56-9cadbecfd0e7",
                     *           "user_id": "7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81",
                     *           "entity_type": "saved_view",
                     *           "entity_id": "c27f5d8f-9a1b-4d32-8e45-8b9cadbecfd6",
                     *           "title": "New results for \"blurry duplicates\"",
                     *           "message": "3 new results in street-photos",
                     *           "metadata": {
                     *             "batch_id": "f5a280bc-2d4e-4a65-9b78-becfd0e1f209",
                     *             "is_alert": true,
                     *             "view_name": "blurry duplicates",
                     *             "dataset_name": "street-photos",
                     *             "result_count": 3
                     *           },
                     *           "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *           "created_at": "2026-01-15T09:30:00.000Z",
                     *           "read_at": null
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "has_more": false
                     *     }
                     */
                    "application/json": {
                        notifications: components["schemas"]["Notification"][];
                        /** @description All notifications matching the filters */
                        total: number;
                        has_more: boolean;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNotificationsUnreadCount: {
        parameters: {
            query?: {
                /** @description Only this dataset's notifications */
                dataset_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example 1 */
                    "application/json": number;
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postNotificationsRead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                notification_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postNotificationsReadAll: {
        parameters: {
            query?: {
                /** @description Only this dataset's notifications */
                dataset_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ok": true,
                     *       "count": 3
                     *     }
                     */
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /** @description Notifications marked read */
                        count: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNotificationsStream: {
        parameters: {
            query?: {
                /** @description Only this dataset's notifications */
                dataset_id?: string;
                /** @description For clients that cannot send the Last-Event-ID header */
                last_event_id?: string;
            };
            header?: {
                /** @description The id of the last event received: the notifications after it are sent first */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example event: notification
                     *     id: 42
                     *     data: {"id":"d3806e9a-0b2c-4e43-9f56-9cadbecfd0e7","user_id":"7d2a0e3a-4b6c-4e8d-9f90-3c4d5e6f7a81","entity_type":"saved_view","entity_id":"c27f5d8f-9a1b-4d32-8e45-8b9cadbecfd6","title":"New results for \"blurry duplicates\"","message":"3 new results in street-photos","metadata":{"batch_id":"f5a280bc-2d4e-4a65-9b78-becfd0e1f209","is_alert":true,"view_name":"blurry duplicates","dataset_name":"street-photos","result_count":3},"dataset_id":"5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f","created_at":"2026-01-15T09:30:00.000Z","read_at":null}
                     *
                     *     event: ping
                     *     data: {"time":"2026-01-15T09:31:12.000Z"}
                     */
                    "text/event-stream": string;
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "text/event-stream": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "text/event-stream": components["schemas"]["Error"];
                };
            };
        };
    };
    getExploreByDatasetId: {
        parameters: {
            query?: {
                /** @description Cluster granularity: 0 = near-duplicates (finest) … 4 = broad similarity */
                threshold?: number;
                entity_type?: "IMAGES" | "OBJECTS";
                /** @description 0-based; 100 clusters a page */
                page_number?: number;
                /** @description Members listed per cluster, best first (6 by default: a page of large clusters stays small; ask for more) */
                previews_limit?: number;
                /** @description Similarity search: a media id of the dataset, or an UPLOAD anchor id */
                anchor_media_id?: string;
                /** @description MEDIA (default) or UPLOAD (from search-image-similarity) */
                anchor_type?: "MEDIA" | "UPLOAD";
                /** @description Default: relevance with an anchor or a semantic query, else size */
                sort_by?: "size" | "uniqueness" | "relevance";
                /** @description JSON array of AND-ed filters: text (fts | semantic), labels (one_of), tags (is), issues, duplicates, uniqueness, custom ({field, op: eq|ne|gt|gte|lt|lte|between|contains|exists, value}), map ({op: within, value: polygon [[x, y], …] on the embedding map}) */
                vql?: string;
                /** @description Substring of the file name, case-insensitive */
                file_name?: string;
                /** @description duplicates, exact_duplicates, outliers, blur, dark, bright, grayscale, low_information, odd_aspect_ratio, odd_size, mislabels or class_outliers (docs/curation.md); with entity_type=OBJECTS, mislabels and class_outliers are the objects own flags */
                issue_type?: string;
                min_uniqueness?: string;
                max_uniqueness?: string;
                /** @description IMAGE, VIDEO_FRAME or VIDEO (a video is listed through its frames); comma-separated */
                media_type?: string;
                /** @description Text search; with textual_similarity_threshold it is semantic */
                caption?: string;
                textual_similarity_threshold?: string;
                /** @description Comma-separated; media with any of them */
                labels?: string;
                /** @description Comma-separated; media with any of them */
                tags?: string;
                /** @description A saved view of this dataset: its stored query replaces the parameters above except page_number and previews_limit */
                view_id?: string;
            };
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "clusters": [
                     *         {
                     *           "cluster_id": "a05d3b6d-7e9f-4b10-8c23-6f7a8b9cadb4",
                     *           "type": "IMAGES",
                     *           "n_images": 2,
                     *           "n_objects": 0,
                     *           "n_videos": 0,
                     *           "n_media": 2,
                     *           "previews": [
                     *             {
                     *               "type": "IMAGE",
                     *               "media_id": "8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92",
                     *               "media_uri": "/api/v1/dataset/5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f/media/8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92/original",
                     *               "media_thumb_uri": "/api/v1/dataset/5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f/media/8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92/thumbnail",
                     *               "file_name": "dog.jpg",
                     *               "caption": "a dog on a lawn",
                     *               "width": 1024,
                     *               "height": 768,
                     *               "relevance_score": null,
                     *               "relevance_score_type": null,
                     *               "uniqueness_score": 0.81,
                     *               "issues": [],
                     *               "duplicate_group_id": null,
                     *               "video_id": null,
                     *               "frame_timestamp": null,
                     *               "tags": [
                     *                 "reviewed"
                     *               ],
                     *               "label": "dog"
                     *             }
                     *           ],
                     *           "labels": [
                     *             "dog"
                     *           ],
                     *           "user_tags": [
                     *             "reviewed"
                     *           ],
                     *           "captions": [
                     *             "a dog on a lawn"
                     *           ]
                     *         }
                     *       ],
                     *       "page_number": 0,
                     *       "threshold": 0,
                     *       "entity_type": "IMAGES",
                     *       "total_clusters": 1,
                     *       "clusters_per_page": 100
                     *     }
                     */
                    "application/json": {
                        clusters: {
                            /** Format: uuid */
                            cluster_id: string;
                            /** @description The entity type listed: IMAGES or OBJECTS */
                            type: string;
                            n_images: number;
                            n_objects: number;
                            n_videos: number;
                            /** @description Members matching the query, images and video frames */
                            n_media: number;
                            previews: {
                                /** @description IMAGE or VIDEO_FRAME */
                                type: string;
                                /** Format: uuid */
                                media_id: string;
                                /** @description Signed link to the original, valid one hour */
                                media_uri: string;
                                media_thumb_uri: string | null;
                                file_name: string;
                                caption: string | null;
                                width: number | null;
                                height: number | null;
                                /** @description Cosine distance to the anchor or query: lower is closer */
                                relevance_score: number | null;
                                relevance_score_type: string | null;
                                uniqueness_score: number | null;
                                issues: string[];
                                duplicate_group_id: string | null;
                                /** @description For a VIDEO_FRAME, the video it was taken from */
                                video_id: string | null;
                                frame_timestamp: number | null;
                                /** @description The media's tags */
                                tags: string[];
                                /** @description The media's label (class name); on OBJECTS pages the detected object's class */
                                label: string | null;
                                /**
                                 * Format: uuid
                                 * @description OBJECTS pages: the detected object
                                 */
                                object_id?: string;
                                /** @description OBJECTS pages: the detection score */
                                score?: number;
                                /** @description OBJECTS pages: the object's box in the media's pixels (x, y = top left) */
                                bounding_box?: {
                                    x: number;
                                    y: number;
                                    width: number;
                                    height: number;
                                };
                                /** @description OBJECTS pages, an object flagged mislabels: the class most of its nearest objects have (POST …/label_errors with target objects) */
                                suggested_label?: string | null;
                            }[];
                            /** @description Distinct labels of the previews shown */
                            labels: string[];
                            /** @description Distinct tags of the previews shown */
                            user_tags: string[];
                            captions: string[];
                        }[];
                        page_number: number;
                        threshold: number;
                        entity_type: string;
                        total_clusters: number;
                        clusters_per_page: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetSearchImageSimilarity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The image to search by
                     */
                    file: string;
                    /**
                     * @description A region of it: x,y,width,height in its pixels
                     * @example 10,20,200,150
                     */
                    bounding_box?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "anchor_media_id": "8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92",
                     *       "anchor_type": "UPLOAD"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        anchor_media_id: string;
                        /** @enum {string} */
                        anchor_type: "UPLOAD";
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Exactly one media source must be provided: files[], s3_uri, or archive"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too many files in one request: the limit is 500; send them in batches"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetMediaDuplicates: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                media_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "media_id": "8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92",
                     *       "duplicates": [
                     *         "9f4c2a5c-6d8e-4a0f-9b12-5e6f7a8b9ca3"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        media_id: string;
                        duplicates: string[];
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetIssues: {
        parameters: {
            query?: {
                /** @description 0-based page of corrupt_files; 100 files a page */
                page_number?: number;
            };
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "n_media": 1243,
                     *       "median_area": 786432,
                     *       "issues": {
                     *         "blur": 41,
                     *         "dark": 12,
                     *         "bright": 3,
                     *         "outliers": 62,
                     *         "duplicates": 118,
                     *         "exact_duplicates": 9,
                     *         "odd_aspect_ratio": 4,
                     *         "odd_size": 2,
                     *         "grayscale": 7,
                     *         "low_information": 1,
                     *         "mislabels": 5,
                     *         "class_outliers": 3,
                     *         "corrupt": 1
                     *       },
                     *       "object_issues": {
                     *         "mislabels": 14,
                     *         "class_outliers": 6
                     *       },
                     *       "corrupt_files": [
                     *         {
                     *           "file_name": "IMG_0042.jpg",
                     *           "reason": "VipsJpeg: premature end of JPEG file",
                     *           "uploaded_at": "2026-01-15T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "page_number": 0,
                     *       "files_per_page": 100
                     *     }
                     */
                    "application/json": {
                        /** @description Images and video frames of the dataset's current version */
                        n_media: number;
                        /** @description Median width × height of those media, in pixels: what odd_size is measured against */
                        median_area: number | null;
                        /** @description Media per issue type (docs/curation.md); each but corrupt is an Explore issue_type */
                        issues: {
                            /** @description Blurry: variance of the Laplacian below the threshold */
                            blur: number;
                            /** @description Dark: mean luma below the threshold */
                            dark: number;
                            /** @description Bright: mean luma above the threshold */
                            bright: number;
                            /** @description Outliers of the index */
                            outliers: number;
                            /** @description Near-duplicates: members of a level-0 cluster with others */
                            duplicates: number;
                            /** @description Media sharing their bytes or their decoded pixels with another media of the version */
                            exact_duplicates: number;
                            /** @description Long side more than 2.5 times the short side */
                            odd_aspect_ratio: number;
                            /** @description Area below 64×64 px, below 1/16 of the median area, or above 16 times it */
                            odd_size: number;
                            /** @description No colour: 99th percentile of the channel spread at most 12 */
                            grayscale: number;
                            /** @description Entropy of the gray histogram below 2.5 bits: blank, flat, mostly one colour */
                            low_information: number;
                            /** @description mislabel_score at or above the threshold of the last LABEL_ERRORS run (POST …/label_errors); 0 before any run */
                            mislabels: number;
                            /** @description Far from their label's centroid, by the last LABEL_ERRORS run; 0 before any run */
                            class_outliers: number;
                            /** @description Uploaded files that failed to decode (no media) */
                            corrupt: number;
                        };
                        /** @description Detected objects per label-error type (docs/curation.md, Label errors on objects), counted while an object keeps the class scored; Explore's entity_type=OBJECTS filters them */
                        object_issues: {
                            /** @description Detected objects whose mislabel_score reached the threshold of the last LABEL_ERRORS run that scored objects (target objects or all); 0 before any */
                            mislabels: number;
                            /** @description Detected objects far from their class's centroid, by that run; 0 before any */
                            class_outliers: number;
                        };
                        /** @description A page of the corrupt files, oldest first */
                        corrupt_files: {
                            file_name: string;
                            /** @description Why it did not decode */
                            reason: string;
                            /** Format: date-time */
                            uploaded_at: string;
                        }[];
                        page_number: number;
                        files_per_page: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetDedup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description exact: identical bytes or identical decoded pixels (the exact_duplicates issue); near: members of one index cluster at `level` (Explore's duplicates)
                     * @enum {string}
                     */
                    scope: "exact" | "near";
                    /** @description Cluster level for scope near, as Explore: 0 finest (default) … 4 coarsest */
                    level?: number;
                    /**
                     * @description Which member of each group is kept: largest_resolution (width × height, ties: larger file), sharpest (highest blur score), earliest_capture (EXIF capture time, missing last), first_uploaded, or custom_field (with field and order); remaining ties: first recorded, then file name, then media id
                     * @enum {string}
                     */
                    keep: "largest_resolution" | "sharpest" | "earliest_capture" | "first_uploaded" | "custom_field";
                    /** @description The custom metadata field of keep custom_field */
                    field?: string;
                    /**
                     * @description keep custom_field: asc keeps the lowest value, desc the highest; media without it come last
                     * @enum {string}
                     */
                    order?: "asc" | "desc";
                    /**
                     * @description Only answer the groups and what each keeps (200); nothing changes
                     * @default false
                     */
                    dry_run?: boolean;
                    /**
                     * @description Tag the media a dedup would remove `duplicate` instead of removing them
                     * @default false
                     */
                    tag_only?: boolean;
                    /**
                     * @description dry_run: 0-based page of groups, 100 a page
                     * @default 0
                     */
                    page_number?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "scope": "exact",
                     *       "level": null,
                     *       "keep": "largest_resolution",
                     *       "field": null,
                     *       "order": null,
                     *       "totals": {
                     *         "groups": 1,
                     *         "media_in_groups": 2,
                     *         "media_kept": 1,
                     *         "media_removed": 1
                     *       },
                     *       "page_number": 0,
                     *       "groups_per_page": 100,
                     *       "groups": [
                     *         {
                     *           "group_id": "pixels:9b2f6c1d0e8a4b7c5d3e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c",
                     *           "n_members": 2,
                     *           "keeper_media_id": "8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92",
                     *           "members": [
                     *             {
                     *               "media_id": "8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92",
                     *               "file_name": "kitchen-042.jpg",
                     *               "file_size": 482113,
                     *               "value": 12000000,
                     *               "keep": true
                     *             },
                     *             {
                     *               "media_id": "9f4c2a5c-6d8e-4a0f-9b12-5e6f7a8b9ca3",
                     *               "file_name": "kitchen-042 (copy).png",
                     *               "file_size": 9120554,
                     *               "value": 12000000,
                     *               "keep": false
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        scope: "exact" | "near";
                        /** @description The cluster level of scope near; null for exact */
                        level: number | null;
                        /** @enum {string} */
                        keep: "largest_resolution" | "sharpest" | "earliest_capture" | "first_uploaded" | "custom_field";
                        field: string | null;
                        /** @enum {string|null} */
                        order: "asc" | "desc" | null;
                        totals: {
                            /** @description Groups of two or more images */
                            groups: number;
                            /** @description Images in those groups */
                            media_in_groups: number;
                            /** @description One per group */
                            media_kept: number;
                            /** @description The others: what a dedup removes (or tags, with tag_only) */
                            media_removed: number;
                        };
                        page_number: number;
                        groups_per_page: number;
                        /** @description Largest group first, then by keeper media id */
                        groups: {
                            /** @description near: the cluster id; exact: pixels:<pixel hash> or bytes:<content hash> */
                            group_id: string;
                            /** @description Members of the group; at most 100 are listed, the keeper first, then in the rule's order */
                            n_members: number;
                            /** Format: uuid */
                            keeper_media_id: string;
                            members: {
                                /** Format: uuid */
                                media_id: string;
                                file_name: string;
                                /** @description Bytes */
                                file_size: number;
                                /** @description What the keeper rule compared: w × h pixels, the blur score, the capture time, the time recorded, or the custom field value */
                                value: string | number | boolean | (never | null);
                                keep: boolean;
                            }[];
                        }[];
                    };
                };
            };
            /** @description Default Response */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        task_id: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetLeakage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description Another dataset you can see, embedded by the same model: its media are side B
                     */
                    other_dataset_id?: string;
                    /** @description A custom field of this dataset whose values are splits (e.g. train / val / test): each value's media are a side */
                    split_field?: string;
                    /** @description With split_field: the two values to compare (side A, side B); default every pair of its values, most media first */
                    split_values?: string[];
                    /** @description Cosine similarity on the index's centred vectors at which two media are near-duplicates (default 0.7; docs/curation.md) */
                    threshold?: number;
                    /** @description Tag the leaked media (e.g. 'leak') on each side whose dataset you may change; needs change access to this dataset */
                    tag?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The LEAKAGE task; its result is read at GET …/leakage/{task_id} once it is COMPLETED
                         */
                        task_id: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetLeakageByTaskId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b",
                     *       "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *       "other_dataset_id": null,
                     *       "split_field": "split",
                     *       "threshold": 0.7,
                     *       "tag": "leak",
                     *       "comparisons": [
                     *         {
                     *           "comparison": 0,
                     *           "side_a": {
                     *             "name": "train",
                     *             "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *             "n_media": 1000,
                     *             "n_leaked": 46,
                     *             "percent_leaked": 4.6,
                     *             "n_tagged": 46
                     *           },
                     *           "side_b": {
                     *             "name": "val",
                     *             "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *             "n_media": 240,
                     *             "n_leaked": 48,
                     *             "percent_leaked": 20,
                     *             "n_tagged": 48
                     *           },
                     *           "n_pairs": 51
                     *         }
                     *       ],
                     *       "created_at": "2026-01-15T09:31:12.000Z"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        task_id: string;
                        /** Format: uuid */
                        dataset_id: string;
                        /**
                         * Format: uuid
                         * @description The other dataset (null for splits, or once it is deleted)
                         */
                        other_dataset_id: string | null;
                        split_field: string | null;
                        threshold: number;
                        tag: string | null;
                        /** @description One per compared pair of sides: two datasets make one; splits one per pair of values */
                        comparisons: {
                            /** @description Its number, for the pairs route */
                            comparison: number;
                            side_a: {
                                /** @description The split's value, or the dataset's name */
                                name: string;
                                /** Format: uuid */
                                dataset_id: string;
                                /** @description Embedded media of the side (images and video frames) */
                                n_media: number;
                                /** @description Of them, media with a near-duplicate on the other side at the threshold */
                                n_leaked: number;
                                /** @description n_leaked as a share of n_media, in per cent */
                                percent_leaked: number;
                                /** @description Media tagged; null where no tag was asked or the dataset could not be changed at the commit */
                                n_tagged: number | null;
                            };
                            side_b: {
                                /** @description The split's value, or the dataset's name */
                                name: string;
                                /** Format: uuid */
                                dataset_id: string;
                                /** @description Embedded media of the side (images and video frames) */
                                n_media: number;
                                /** @description Of them, media with a near-duplicate on the other side at the threshold */
                                n_leaked: number;
                                /** @description n_leaked as a share of n_media, in per cent */
                                percent_leaked: number;
                                /** @description Media tagged; null where no tag was asked or the dataset could not be changed at the commit */
                                n_tagged: number | null;
                            };
                            /** @description Near-duplicate pairs found across (each media keeps its 10 best) */
                            n_pairs: number;
                        }[];
                        /** Format: date-time */
                        created_at: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetLeakagePairs: {
        parameters: {
            query?: {
                /** @description 0-based page; 100 pairs a page */
                page_number?: number;
                /** @description Only the pairs of this comparison (default all) */
                comparison?: number;
            };
            header?: never;
            path: {
                dataset_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pairs": [
                     *         {
                     *           "comparison": 0,
                     *           "similarity": 0.97,
                     *           "media_a": {
                     *             "media_id": "8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92",
                     *             "file_name": "IMG_0042.jpg",
                     *             "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *             "media_thumb_uri": "http://localhost:8080/api/v1/dataset/5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f/media/8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92/thumbnail?expires=1768470000&signature=4c1d"
                     *           },
                     *           "media_b": {
                     *             "media_id": "9f4c2a5c-6d8e-4a0f-9b12-5e6f7a8b9ca3",
                     *             "file_name": "IMG_0042-crop.jpg",
                     *             "dataset_id": "5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f",
                     *             "media_thumb_uri": "http://localhost:8080/api/v1/dataset/5b0e8c1e-2f4a-4c6b-9d7e-1a2b3c4d5e6f/media/9f4c2a5c-6d8e-4a0f-9b12-5e6f7a8b9ca3/thumbnail?expires=1768470000&signature=7a2e"
                     *           }
                     *         }
                     *       ],
                     *       "page_number": 0,
                     *       "page_size": 100,
                     *       "total": 51
                     *     }
                     */
                    "application/json": {
                        /** @description Most similar first; ties in comparison and media id order, so pages are stable */
                        pairs: {
                            comparison: number;
                            /** @description Cosine similarity on centred vectors */
                            similarity: number;
                            media_a: {
                                /** Format: uuid */
                                media_id: string;
                                file_name: string;
                                /** Format: uuid */
                                dataset_id: string;
                                /** @description Signed link to its WebP thumbnail, as the media routes give */
                                media_thumb_uri: string | null;
                            };
                            media_b: {
                                /** Format: uuid */
                                media_id: string;
                                file_name: string;
                                /** Format: uuid */
                                dataset_id: string;
                                /** @description Signed link to its WebP thumbnail, as the media routes give */
                                media_thumb_uri: string | null;
                            };
                        }[];
                        page_number: number;
                        page_size: number;
                        /** @description Pairs in all (of the comparison, when given) */
                        total: number;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetLabelErrors: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        /** @description How to score label errors (docs/curation.md, Label errors) */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Nearest labelled neighbours each labelled media is compared with
                     * @default 10
                     */
                    k?: number;
                    /**
                     * @description mislabel_score (share of the neighbours with another label) from which a media (or object) is a mislabel
                     * @default 0.7
                     */
                    threshold?: number;
                    /**
                     * @description What is scored: the media's image labels (media), the detected objects' classes, each object compared with objects only (objects), or both (all). objects and all need detected objects with crop embeddings (OBJECT_DETECTION enrichment); media and all need two labelled media
                     * @default media
                     */
                    target?: "media" | "objects" | "all";
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    /** @description The started task, `/api/v1/tasks/{task_id}`: GET it to follow its status and progress */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "task_id": "3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The LABEL_ERRORS task
                         */
                        task_id: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "You do not have permission to edit this dataset"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasetMap: {
        parameters: {
            query?: {
                /** @description Cluster level of each point's cluster id, as Explore's threshold (0 finest … 4 coarsest) */
                threshold?: number;
                /** @description Points per page. Points come in media-id order, which is random on the map: any first page is an even sample of it (a level of detail) */
                limit?: number;
                /** @description The previous page's next_cursor (the last media_id it held) */
                cursor?: string;
                /** @description Only points inside this rectangle (all four bounds or none; edges included) */
                min_x?: number;
                /** @description See min_x */
                min_y?: number;
                /** @description See min_x */
                max_x?: number;
                /** @description See min_x */
                max_y?: number;
            };
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "bounds": {
                     *         "min_x": 0,
                     *         "min_y": 0,
                     *         "max_x": 1,
                     *         "max_y": 0.87
                     *       },
                     *       "total": 1243,
                     *       "sample": 1243,
                     *       "seconds": {
                     *         "umap": 0.41,
                     *         "placement": 0
                     *       },
                     *       "threshold": 2,
                     *       "clusters": [
                     *         "c4a1f0e2-7b3d-5e9f-8a21-0d6c5b4e3f21",
                     *         "5d2e8f10-3c4b-5a6d-9e7f-1a2b3c4d5e6f"
                     *       ],
                     *       "points": {
                     *         "media_id": [
                     *           "8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92",
                     *           "0b9c4a7e-1f2d-4e3c-8b5a-6d7e8f9a0b1c"
                     *         ],
                     *         "x": [
                     *           0.4123,
                     *           0.4131
                     *         ],
                     *         "y": [
                     *           0.2871,
                     *           0.6602
                     *         ],
                     *         "cluster": [
                     *           0,
                     *           1
                     *         ]
                     *       },
                     *       "next_cursor": "0b9c4a7e-1f2d-4e3c-8b5a-6d7e8f9a0b1c"
                     *     }
                     */
                    "application/json": {
                        /** @description Where the points lie: at index time the layout is scaled so its longer side spans [0, 1]; media attached later may widen it */
                        bounds: {
                            min_x: number;
                            min_y: number;
                            max_x: number;
                            max_y: number;
                        };
                        /** @description Points on the whole map (rectangle or not) */
                        total: number;
                        /** @description Media UMAP was fitted on at index time; the others were placed from their neighbours */
                        sample: number;
                        /** @description What making the map took at index time */
                        seconds: {
                            umap: number;
                            placement: number;
                        };
                        threshold: number;
                        /** @description The page's distinct cluster ids at the threshold, each listed once */
                        clusters: string[];
                        /** @description The page as columns: point i is (media_id[i], x[i], y[i], clusters[cluster[i]]) */
                        points: {
                            media_id: string[];
                            x: number[];
                            y: number[];
                            cluster: number[];
                        };
                        /** @description Pass as cursor for the next page; null on the last page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDatasetMapSelection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dataset_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Vertices [x, y] in order (a lasso); the last joins the first. A point on an edge is inside */
                    polygon?: number[][];
                    /** @description A rectangle, edges included: give it or polygon */
                    rect?: {
                        /** @description Left */
                        min_x: number;
                        /** @description Bottom */
                        min_y: number;
                        /** @description Right */
                        max_x: number;
                        /** @description Top */
                        max_y: number;
                    };
                    /**
                     * @description Media ids per page
                     * @default 1000
                     */
                    limit?: number;
                    /**
                     * Format: uuid
                     * @description The previous page's next_cursor (the last media_id it held)
                     */
                    cursor?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "count": 2,
                     *       "media_ids": [
                     *         "8e3b1f4b-5c7d-4f9e-8a01-4d5e6f7a8b92",
                     *         "0b9c4a7e-1f2d-4e3c-8b5a-6d7e8f9a0b1c"
                     *       ],
                     *       "next_cursor": null,
                     *       "vql": "[{\"map\":{\"op\":\"within\",\"value\":[[0.4,0.28],[0.42,0.28],[0.42,0.67],[0.4,0.67]]}}]"
                     *     }
                     */
                    "application/json": {
                        /** @description Media inside the shape, on every page together */
                        count: number;
                        /** @description A page of them in media-id order */
                        media_ids: string[];
                        next_cursor: string | null;
                        /** @description The same selection as an Explore vql filter: pass it to Explore, tag-by-query, an export's selection or a saved view */
                        vql: string;
                    };
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Dataset not found"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Operation 'add_media' is blocked while MEDIA_ADDITION task is running"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Every error: `{"detail": "..."}` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "params/dataset_id must match format \"uuid\""
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
