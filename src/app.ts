import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { inReadLane } from './adapters/db/database.js';
import type { Services } from './container.js';
import { registerAuthentication } from './http/authenticate.js';
import { registerErrorHandler } from './http/error-handler.js';
import { addOperationIds, documentRoute, refResolver } from './http/openapi.js';
import { addExamples } from './http/openapi-examples.js';
import { registerNulGuard } from './http/nul-guard.js';
import { MAX_PARAM_LENGTH, clientErrorHandler, frameworkErrors } from './http/framework-errors.js';
import { registerReadPriority } from './http/read-priority.js';
import { RequestLog } from './http/request-log.js';
import { sharedSerializers } from './http/shared-serializers.js';
import { ErrorBody } from './http/schemas.js';
import { accessRoutes } from './modules/access/access.routes.js';
import { AccessEntry } from './modules/access/access.schemas.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { datasetsRoutes } from './modules/datasets/datasets.routes.js';
import { Dataset } from './modules/datasets/datasets.schemas.js';
import { ingestionRoutes } from './modules/ingestion/ingestion.routes.js';
import { mediaRoutes } from './modules/media/media.routes.js';
import { exploreRoutes } from './modules/explore/explore.routes.js';
import { issuesRoutes } from './modules/explore/issues.routes.js';
import { dedupRoutes } from './modules/dedup/dedup.routes.js';
import { leakageRoutes } from './modules/leakage/leakage.routes.js';
import { labelErrorsRoutes } from './modules/label-errors/label-errors.routes.js';
import { mapRoutes } from './modules/map/map.routes.js';
import { addMediaRoutes } from './modules/add-media/add-media.routes.js';
import { annotationsRoutes } from './modules/annotations/annotations.routes.js';
import { selectionRoutes } from './modules/selection/selection.routes.js';
import { customMetadataRoutes } from './modules/custom-metadata/custom-metadata.routes.js';
import { type MetricsSource, registerMetrics } from './modules/system/metrics.js';
import type { SweepStatus } from './modules/system/system.routes.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { homeRoutes } from './modules/system/home.routes.js';
import { WEB_DIST } from './modules/web/web-build.js';
import { webRoutes } from './modules/web/web.routes.js';
import { snapshotsRoutes } from './modules/snapshots/snapshots.routes.js';
import { exportsRoutes } from './modules/exports/exports.routes.js';
import { enrichmentRoutes } from './modules/enrichment/enrichment.routes.js';
import { EnrichmentModel } from './modules/enrichment/enrichment.schemas.js';
import { Snapshot } from './modules/snapshots/snapshots.schemas.js';
import { tasksRoutes } from './modules/tasks/tasks.routes.js';
import { viewsRoutes } from './modules/views/views.routes.js';
import { SavedView } from './modules/views/views.schemas.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { notificationStreamRoutes } from './modules/notifications/notification-stream.routes.js';
import { Notification } from './modules/notifications/notifications.schemas.js';
import { Task } from './modules/tasks/tasks.schemas.js';

export interface AppDeps {
  log: Logger;
  services: Services;
  checkDatabase: () => Promise<void>;
  metrics: MetricsSource;
  /** How each garbage sweep of this process has fared, where this process runs them. */
  sweeps?: () => Record<string, SweepStatus>;
  publicUrl: string | null;
  version: string;
  /** Serve the pipeline routes (on-premises add_media from a local path): only where this process also runs jobs. */
  processRoutes?: boolean;
  /** The built web app's folder; web/dist by default. */
  webDist?: string;
}

/** Requests whose queries use the reads pool: GET and HEAD, but for ingestion's (new_dataset and data_files create rows). */
const isRead = (method: string, url: string) => (method === 'GET' || method === 'HEAD') && !url.startsWith('/api/v1/ingestion/');

/** Builds the HTTP app from ready services: no environment, no listening (main.ts and tests do that). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    logController: new RequestLog(),
    // strictNumbers off: with it on, AJV coerces a query '1e999' or 'Infinity' to Infinity and then skips the
    // minimum/maximum checks for a non-finite number, so it reached SQL (a 500); off, the bound answers the 422.
    // Every numeric parameter therefore has both bounds (test/http/numeric-bounds.test.ts checks openapi.json).
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, strictNumbers: false } },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers } },
  });

  // Clients POST actions (abort, retry, restore) with a JSON content type and no body: that is not an error.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('Request body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });

  registerErrorHandler(app);
  app.addHook('onRequest', (request, _reply, done) => (isRead(request.method, request.url) ? inReadLane(done) : done()));
  registerReadPriority(app, isRead);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs') || route.url.startsWith('/assets/')) route.config = { ...(route.config as object), public: true };
  });
  await app.register(cookie);
  await app.register(formbody);
  await app.register(multipart);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Loupe API', version: deps.version, description: 'Self-hostable service for image and video datasets.' },
      ...(deps.publicUrl ? { servers: [{ url: deps.publicUrl }] } : {}),
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'HS256 JWT signed with api_secret; kid = sub = api_key, iss = "sdk"' },
          session: { type: 'apiKey', in: 'cookie', name: 'loupe_session' },
          docsSession: { type: 'apiKey', in: 'cookie', name: 'SESSION', description: 'The same session as loupe_session, under the name the hosted service uses' },
        },
      },
      security: [{ bearer: [] }, { session: [] }, { docsSession: [] }],
    },
    refResolver,
    transform: documentRoute,
    transformObject: (document) => addOperationIds(addExamples(document) as { paths?: never }),
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });

  for (const schema of [ErrorBody, Dataset, Task, AccessEntry, Snapshot, SavedView, Notification, EnrichmentModel]) app.addSchema(schema);
  registerAuthentication(app, deps.services.auth);
  registerNulGuard(app);

  const { auth, datasets, access, tasks, ingestion, media } = deps.services;
  registerMetrics(app, { ...deps.metrics, sweeps: deps.sweeps });
  systemRoutes(app, { checkDatabase: deps.checkDatabase, sweeps: deps.sweeps });
  homeRoutes(app, { version: deps.version, sendPage: await webRoutes(app, { dist: deps.webDist ?? WEB_DIST }) });
  authRoutes(app, { auth, secureCookies: deps.publicUrl?.startsWith('https:') ?? false });
  ingestionRoutes(app, { datasets, ingestion });
  datasetsRoutes(app, { datasets });
  accessRoutes(app, { access });
  tasksRoutes(app, { tasks });
  mediaRoutes(app, { media, auth, downloads: deps.services.downloads, publicUrl: deps.publicUrl });
  addMediaRoutes(app, { addMedia: deps.services.addMedia, processRoutes: deps.processRoutes ?? false });
  snapshotsRoutes(app, { snapshots: deps.services.snapshots });
  exportsRoutes(app, { exports: deps.services.exports, auth, downloads: deps.services.downloads, publicUrl: deps.publicUrl });
  enrichmentRoutes(app, { enrichment: deps.services.enrichment });
  viewsRoutes(app, { views: deps.services.views });
  annotationsRoutes(app, { annotations: deps.services.annotations });
  selectionRoutes(app, { selection: deps.services.selection });
  customMetadataRoutes(app, { customMetadata: deps.services.customMetadata });
  notificationsRoutes(app, { notifications: deps.services.notifications });
  notificationStreamRoutes(app, { notifications: deps.services.notifications });
  exploreRoutes(app, { explore: deps.services.explore, views: deps.services.views, media, publicUrl: deps.publicUrl, maxFileBytes: deps.services.ingestion.limits.maxFileBytes });
  issuesRoutes(app, { issues: deps.services.issues });
  dedupRoutes(app, { dedup: deps.services.dedup });
  leakageRoutes(app, { leakage: deps.services.leakage, media, publicUrl: deps.publicUrl });
  labelErrorsRoutes(app, { labelErrors: deps.services.labelErrors });
  mapRoutes(app, { map: deps.services.map });
  return app;
}
