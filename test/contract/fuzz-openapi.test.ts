import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessFixture, buildAccessFixture } from '../support/access-fixture.js';
import { type FilePart, type FuzzRequest, type Operation, operationsOf, requestsFor } from '../support/openapi-arbitraries.js';
import { type TestServer, startTestServer } from '../support/server.js';

/**
 * Property-based fuzzing from the server's own OpenAPI document: for every operation, requests built from its
 * schemas (right values and real ids that reach deep code, and hostile ones) never get a 5xx, and every 4xx says
 * why in `{"detail"}`. FUZZ_RUNS raises the runs per operation (e.g. FUZZ_RUNS=200 locally).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

/** Operations that remove or block what the others use: fuzzed last, in this order. */
const LAST = [
  'DELETE /api/v1/manage/{dataset_id}/share',
  'DELETE /api/v1/dataset/{dataset_id}/views/{view_id}',
  'DELETE /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}',
  'POST /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/clone',
  'POST /api/v1/dataset/{dataset_id}/snapshot/{snapshot_id}/restore',
  'DELETE /api/v1/dataset/{dataset_id}',
];

/** The web app's pages answer 503 with a detail where web/dist is not built. */
const WEB_PAGES = new Set(['GET /sign-in', 'GET /datasets', 'GET /datasets/{*}', 'GET /tasks', 'GET /notifications']);

let server: TestServer;
let f: AccessFixture;
let operations: Operation[];
let photoBytes: Buffer;

beforeAll(async () => {
  server = await startTestServer();
  [f, photoBytes] = await Promise.all([buildAccessFixture(server), sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } }).jpeg().toBuffer()]);
  const doc = await fetch(`${server.url}/docs/json`);
  operations = operationsOf(await doc.json());
}, 120_000);
afterAll(() => server?.close());

function realValues(f: AccessFixture) {
  const emails = [f.users.invitee.email, f.users.viewer.email, f.users.editor.email];
  return {
    dataset_id: [f.datasetId, f.draftId, f.strangerDatasetId],
    media_id: [f.mediaId],
    media_ids: [f.mediaId],
    anchor_media_id: [f.mediaId],
    exclude_media_ids: [f.mediaId],
    task_id: [f.taskId, f.importTaskId],
    snapshot_id: [f.snapshotId, f.doomedSnapshots.editor, f.doomedSnapshots.owner],
    view_id: [f.viewId, f.doomedViews.editor, f.doomedViews.owner],
    export_id: [f.exportId],
    export_task_id: [f.exportId],
    notification_id: [f.notificationId],
    trans_id: [f.emptyTransId, f.uploadTransId],
    user_email: emails,
    grant_to_user_email: emails,
    notify_emails: emails,
    created_by: [f.users.owner.email],
    dataset_name: [f.datasetName],
    api_key: [f.users.owner.api_key],
    api_secret: [f.users.owner.api_secret],
  };
}

const tokenOf = (request: FuzzRequest): string | undefined =>
  request.auth === 'owner' ? f.users.owner.token : request.auth === 'viewer' ? f.users.viewer.token : request.auth === 'garbage' ? 'eyJhbGciOiJIUzI1NiJ9.e30.garbage' : undefined;

function fileBlob(part: FilePart): Blob {
  const bytes = part.bytes === 'photo' ? photoBytes : part.bytes === 'junk' ? Buffer.from('\u0000\u00ffnot an image at all') : Buffer.alloc(0);
  return new Blob([new Uint8Array(bytes)]);
}

function payload(request: FuzzRequest, headers: Record<string, string>): BodyInit | undefined {
  const { body } = request;
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'json':
      headers['content-type'] = 'application/json';
      return JSON.stringify(body.value) ?? 'null';
    case 'form':
      return new URLSearchParams(body.fields);
    case 'multipart': {
      const form = new FormData();
      for (const [name, value] of body.fields) {
        if (typeof value === 'string') form.append(name, value);
        else form.append(name, fileBlob(value), value.file);
      }
      return form;
    }
    case 'raw':
      headers['content-type'] = body.contentType;
      return body.text;
  }
}

/** Sends one request; an event stream is answered by its status and headers. A request with no answer in 15 s fails. */
async function send(request: FuzzRequest): Promise<{ status: number; text: string; contentType: string }> {
  const headers: Record<string, string> = {};
  const token = tokenOf(request);
  if (token) headers.authorization = `Bearer ${token}`;
  const body = payload(request, headers);
  const query = request.query.length ? `?${new URLSearchParams(request.query)}` : '';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('no answer within 15 s')), 15_000);
  try {
    const res = await fetch(`${server.url}${request.path}${query}`, { method: request.method, headers, body, signal: controller.signal, redirect: 'manual' });
    const contentType = res.headers.get('content-type') ?? '';
    if (contentType.startsWith('text/event-stream')) {
      controller.abort();
      return { status: res.status, text: '', contentType };
    }
    return { status: res.status, text: await res.text(), contentType };
  } finally {
    clearTimeout(timer);
  }
}

const detailOf = (text: string): unknown => {
  try {
    return (JSON.parse(text) as { detail?: unknown }).detail;
  } catch {
    return undefined;
  }
};

describe('fuzzing every operation of the OpenAPI document', () => {
  it('covers every documented operation', () => {
    expect(operations.length).toBeGreaterThan(60);
    const keys = new Set(operations.map((op) => `${op.method} ${op.path}`));
    expect(LAST.filter((key) => !keys.has(key))).toEqual([]);
  });

  it(`no 5xx and a {"detail"} on every 4xx (${RUNS} runs per operation)`, async () => {
    const real = realValues(f);
    const key = (op: Operation) => `${op.method} ${op.path}`;
    const ordered = [...operations.filter((op) => !LAST.includes(key(op))), ...LAST.map((k) => operations.find((op) => key(op) === k)!)];
    // Each operation on its own, so one failure does not hide the others; fast-check's report keeps the shrunk request.
    const failures: string[] = [];
    for (const operation of ordered) {
      const details = await fc.check(
        fc.asyncProperty(requestsFor(operation, real), async (request) => {
          const res = await send(request);
          const page = WEB_PAGES.has(key(operation)) && res.status === 503;
          if (res.status >= 500 && !page) throw new Error(`${key(operation)}: ${res.status} ${res.text.slice(0, 300)}`);
          if (res.status >= 400 && typeof detailOf(res.text) !== 'string') throw new Error(`${key(operation)}: ${res.status} without a detail: ${res.text.slice(0, 300)}`);
        }),
        { numRuns: RUNS },
      );
      if (details.failed) failures.push(`${fc.defaultReportMessage(details)}\n${String(details.errorInstance)}`);
    }
    expect(failures).toEqual([]);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  }, 600_000);
});
