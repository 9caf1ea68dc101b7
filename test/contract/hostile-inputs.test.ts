import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset, photo } from '../support/ingest.js';
import { type ApiResponse, type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';

/**
 * The hostile-input catalogue beyond NUL bytes, numbers, multipart, sizes and archives (their own files): control
 * characters, SQL-looking strings, huge and deep JSON, a JSON body under another content type, repeated query
 * parameters and a JPEG+HTML polyglot. Strings are data: stored and read back as sent; what is refused is a 4xx with a
 * detail, changes nothing, and the server answers after it.
 */
let server: TestServer;
let owner: TestUser;
let friend: TestUser;
let datasetId: string;
let mediaId: string;
let polyglotId: string;

const SQL = ["'; drop table media; --", "' OR '1'='1", '1); DELETE FROM datasets; --', 'x\' UNION SELECT api_secret FROM api_keys --', '%_\\'];
/** Every C0 control but NUL (its own file), DEL, C1 NEL, and the bidi overrides and isolates. */
const CONTROLS = [...Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)), '\u007f', '\u0085', '\u202a', '\u202b', '\u202d', '\u202e', '\u2066', '\u2067', '\u2069'];
// A page a browser would run if it sniffed the bytes: after the JPEG's end marker, so the image still decodes.
const HTML = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');

const ds = () => `/api/v1/dataset/${datasetId}`;
const answer = (res: ApiResponse) => ({ status: res.status, body: res.body as unknown });
const get = async (route: string) => answer(await server.api(owner.token, 'GET', route));
const send = async (method: string, route: string, body: unknown) => answer(await server.api(owner.token, method, route, body));
/** A body sent as these exact bytes under this content type. */
async function raw(method: string, route: string, body: string | Uint8Array<ArrayBuffer>, contentType?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${owner.token}` };
  if (contentType) headers['content-type'] = contentType;
  const res = await fetch(`${server.url}${route}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as unknown };
}

/** What a refused request must not change: the dataset, its annotations, who it is shared with, the dataset and task lists. */
async function stored() {
  const dataset = (await server.api(owner.token, 'GET', ds())).body;
  return {
    name: dataset.display_name,
    description: dataset.description,
    tags: (await server.api(owner.token, 'GET', `${ds()}/tags`)).body,
    labels: (await server.api(owner.token, 'GET', `${ds()}/labels`)).body,
    shares: (await server.api(owner.token, 'GET', `/api/v1/manage/${datasetId}/share`)).body,
    datasets: (await server.api(owner.token, 'GET', '/api/v1/datasets')).body.length,
    tasks: (await server.api(owner.token, 'GET', '/api/v1/tasks')).body.total,
  };
}

/** Runs `attempts`, then checks the server still answers and nothing stored changed. */
async function unchanged(attempts: () => Promise<void>) {
  const before = await stored();
  await attempts();
  expect((await server.api(owner.token, 'GET', '/api/v1/auth/me')).status).toBe(200);
  expect(await stored()).toEqual(before);
}

const explore = async (vql: unknown) => get(`/api/v1/explore/${datasetId}?vql=${encodeURIComponent(JSON.stringify(vql))}`);
const mediaMatched = (body: any) => body.clusters.flatMap((c: any) => c.previews.map((p: any) => p.media_id));

beforeAll(async () => {
  server = await startTestServer();
  [owner, friend] = await Promise.all([server.createUser(), server.createUser()]);
  const polyglot = { name: 'polyglot.jpg', bytes: Buffer.concat([photo('dog.jpg').bytes, HTML]) };
  ({ datasetId } = await createDataset(server, owner, 'hostile inputs', [[photo('chelsea.png'), polyglot]]));
  const media = (await server.api(owner.token, 'GET', `${ds()}/media?limit=10`)).body.media as Array<{ file_name: string; media_id: string }>;
  mediaId = media.find((m) => m.file_name === 'chelsea.png')!.media_id;
  polyglotId = media.find((m) => m.file_name === 'polyglot.jpg')!.media_id;
}, 120_000);
afterAll(async () => {
  await fetch(`${server.url}/health`).then((res) => res.arrayBuffer()).catch(() => {});
  await server?.close();
});

describe('control characters are data, stored and read back as sent', () => {
  it('in a dataset name and description', async () => {
    const name = `c${CONTROLS.join('')}`;
    expect(await send('PATCH', ds(), { display_name: name, description: CONTROLS.join(' ') })).toMatchObject({ status: 200, body: { display_name: name } });
    expect((await get(ds())).body).toMatchObject({ display_name: name, description: CONTROLS.join(' ') });
  });

  it('in tags and labels, and Explore finds the media by them', async () => {
    const tags = CONTROLS.slice(0, 20).map((c) => `tag${c}end`);
    expect(await send('POST', `${ds()}/media/tags`, { tags, media_ids: [mediaId] })).toEqual({ status: 200, body: { matched: 1, changed: 1 } });
    const listed = ((await get(`${ds()}/tags`)).body as { tags: Array<{ tag: string }> }).tags.map((t) => t.tag);
    expect(listed).toEqual(expect.arrayContaining(tags));
    expect(await send('PUT', `${ds()}/media/label`, { label: 'bell\u0007\u202eright', media_ids: [mediaId] })).toEqual({ status: 200, body: { matched: 1, changed: 1 } });
    expect((await get(`${ds()}/labels`)).body).toMatchObject({ labels: [{ label: 'bell\u0007\u202eright', count: 1 }] });
    const found = await explore([{ tags: { op: 'is', value: [tags[7]] } }, { labels: { op: 'one_of', value: ['bell\u0007\u202eright'] } }]);
    expect(found.status).toBe(200);
    expect(mediaMatched(found.body)).toEqual([mediaId]);
  });

  it('in VQL text: a search that matches nothing, not an error', async () => {
    const res = await explore([{ text: { op: 'fts', value: CONTROLS.join('') } }]);
    expect(res).toMatchObject({ status: 200, body: { clusters: [], total_clusters: 0 } });
  });

  it('in an e-mail to share with: no such user (404 naming it), and no share is made', async () => {
    await unchanged(async () => {
      for (const email of [`${friend.email.split('@')[0]}\u0001@example.com`, `\u202e${friend.email}`, `${friend.email}\u007f`]) {
        expect(await send('POST', `${ds()}/share`, { user_email: email })).toEqual({ status: 404, body: { detail: `User not found: ${email}` } });
        expect(await send('PUT', `/api/v1/manage/${datasetId}/invite`, { grant_to_user_email: email })).toEqual({ status: 404, body: { detail: `User not found: ${email}` } });
      }
    });
  });

  it('a lone surrogate written as %ED%A0%80 in a query is not UTF-8: the value stays as its literal text', async () => {
    await unchanged(async () => {
      expect(await get('/api/v1/tasks?dataset_name=a%ED%A0%80b')).toMatchObject({ status: 200, body: { tasks: [] } });
      expect(await get(`/api/v1/explore/${datasetId}?tags=a%ED%A0%80b`)).toMatchObject({ status: 200, body: { clusters: [] } });
      expect(await get(`/api/v1/explore/${datasetId}?vql=%5B%7B%22text%22%3A%7B%22op%22%3A%22fts%22%2C%22value%22%3A%22a%ED%A0%80%22%7D%7D%5D`)).toEqual({
        status: 422,
        body: { detail: 'vql must be valid JSON: a JSON array of filter objects' },
      });
    });
  });
});

describe('SQL-looking strings are data, not code', () => {
  it('in a dataset name and description, read back verbatim', async () => {
    for (const text of SQL) {
      expect(await send('PATCH', ds(), { display_name: text, description: text })).toMatchObject({ status: 200, body: { display_name: text, description: text } });
      expect((await get(ds())).body).toMatchObject({ display_name: text, description: text });
    }
    const names = ((await get('/api/v1/datasets')).body as Array<{ id: string; display_name: string }>).map((d) => d.display_name);
    expect(names).toContain(SQL.at(-1));
  });

  it('in tags, labels and VQL text: stored, listed and matched as text', async () => {
    expect(await send('POST', `${ds()}/media/tags`, { tags: SQL, media_ids: [polyglotId] })).toEqual({ status: 200, body: { matched: 1, changed: 1 } });
    const listed = ((await get(`${ds()}/tags`)).body as { tags: Array<{ tag: string; count: number }> }).tags;
    for (const tag of SQL) expect(listed).toContainEqual({ tag, count: 1 });
    expect(await send('PUT', `${ds()}/media/label`, { label: SQL[0], media_ids: [polyglotId] })).toEqual({ status: 200, body: { matched: 1, changed: 1 } });
    expect(((await get(`${ds()}/labels`)).body as { labels: unknown[] }).labels).toContainEqual({ label: SQL[0], count: 1 });
    for (const tag of SQL) expect(mediaMatched((await explore([{ tags: { op: 'is', value: [tag] } }])).body)).toEqual([polyglotId]);
    expect(mediaMatched((await get(`/api/v1/explore/${datasetId}?labels=${encodeURIComponent(SQL[0]!)}`)).body)).toEqual([polyglotId]);
    for (const value of SQL) expect(await explore([{ text: { op: 'fts', value } }])).toMatchObject({ status: 200 });
    // The dataset and its media are all still there.
    expect((await get(`${ds()}/media?limit=10`)).body).toMatchObject({ media: [expect.anything(), expect.anything()] });
  });

  it('in custom field values: imported, read back and filtered on verbatim', async () => {
    const csv = ['file_name,note', ...SQL.map((v, i) => (i === 0 ? `polyglot.jpg,"${v.replaceAll('"', '""')}"` : `x${i}.jpg,"${v.replaceAll('"', '""')}"`))].join('\n');
    const body = new FormData();
    body.set('file', new Blob([csv]), 'sql.csv');
    const started = await server.api(owner.token, 'POST', `${ds()}/custom_metadata`, body);
    expect(started.status).toBe(202);
    const status = await waitFor(async () => {
      const res = await server.api(owner.token, 'GET', `${ds()}/custom_metadata/imports/${started.body.task_id}`);
      return ['COMPLETED', 'FAILED'].includes(res.body.status) ? res.body.status : undefined;
    });
    expect(status).toBe('COMPLETED');
    expect((await get(`${ds()}/media/${polyglotId}`)).body).toMatchObject({ custom_fields: { note: SQL[0] } });
    const found = await explore([{ custom: { field: 'note', op: 'eq', value: SQL[0] } }]);
    expect(mediaMatched(found.body)).toEqual([polyglotId]);
  });
});

describe('huge and deep JSON is refused with a detail, and nothing changes', () => {
  it('a 50 MB body: 413', async () => {
    await unchanged(async () => {
      const bytes = Buffer.alloc(50_000_000, 'x');
      bytes.write('{"description":"');
      bytes.write('"}', bytes.length - 2);
      const body = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) as Uint8Array<ArrayBuffer>;
      expect(await raw('PATCH', ds(), body, 'application/json')).toEqual({ status: 413, body: { detail: 'Request body is too large' } });
    });
  });

  it('100,000 tags in one request: 422 naming the limit', async () => {
    await unchanged(async () => {
      const tags = Array.from({ length: 100_000 }, (_, i) => `tag-${i}`);
      expect(await send('POST', `${ds()}/media/tags`, { tags, media_ids: [mediaId] })).toEqual({ status: 422, body: { detail: 'body/tags must NOT have more than 100 items' } });
    });
  });

  it('JSON nested 10,000 deep in a body, and 5,000 deep in VQL: a 4xx naming what is wrong', async () => {
    await unchanged(async () => {
      const deep = `${'{"a":['.repeat(10_000)}1${']}'.repeat(10_000)}`;
      expect(await raw('PATCH', ds(), deep, 'application/json')).toEqual({ status: 422, body: { detail: "body must NOT have additional properties: 'a'" } });
      expect(await raw('POST', `${ds()}/media/tags`, `{"tags":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 'application/json')).toEqual({
        status: 422,
        body: { detail: 'body/tags/0 must be string' },
      });
      expect(await raw('PATCH', `${ds()}/views/${crypto.randomUUID()}`, `{"filters":{"vql":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`, 'application/json')).toEqual({
        status: 422,
        body: { detail: 'body/filters/vql must be string' },
      });
      const vql = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
      expect(await get(`/api/v1/explore/${datasetId}?vql=${vql}`)).toEqual({ status: 422, body: { detail: 'vql[0] must be an object with exactly one key (one of text, labels, tags, issues, duplicates, uniqueness, custom, map)' } });
    });
  });
});

describe('bodies and queries not as the route takes them', () => {
  it('a JSON body labelled text/plain, or with no content type, is not read as JSON: 422, nothing changes', async () => {
    await unchanged(async () => {
      const body = JSON.stringify({ display_name: 'sent as text' });
      expect(await raw('PATCH', ds(), body, 'text/plain')).toEqual({ status: 422, body: { detail: 'body must be object' } });
      expect(await raw('PATCH', ds(), body)).toEqual({ status: 422, body: { detail: 'body must be object' } });
      expect(await raw('POST', `${ds()}/media/tags`, JSON.stringify({ tags: ['x'], media_ids: [mediaId] }), 'application/xml')).toEqual({ status: 415, body: { detail: 'Unsupported Media Type' } });
    });
  });

  it('a query parameter given twice where the route takes one: 422 naming it, nothing made', async () => {
    await unchanged(async () => {
      expect(await get('/api/v1/ingestion/new_dataset?dataset_name=a&dataset_name=b')).toEqual({ status: 422, body: { detail: 'querystring/dataset_name must be string' } });
      expect(await get(`${ds()}/media?limit=1&limit=2`)).toEqual({ status: 422, body: { detail: 'querystring/limit must be integer' } });
      expect(await get(`/api/v1/explore/${datasetId}?threshold=1&threshold=2`)).toEqual({ status: 422, body: { detail: 'querystring/threshold must be integer' } });
      expect(await get(`/api/v1/explore/${datasetId}?vql=[]&vql=[]`)).toEqual({ status: 422, body: { detail: 'querystring/vql must be string' } });
    });
  });
});

describe('bugs the fuzzing found', () => {
  it('a file part with filename="" is a 400 naming its field on every upload route (was a 500), and nothing is stored', async () => {
    const draft = (await get('/api/v1/ingestion/new_dataset?dataset_name=nameless')).body as { dataset_id: string };
    const transId = ((await get(`/api/v1/ingestion/${draft.dataset_id}/data_files`)).body as { trans_id: number }).trans_id;
    const nameless = (field: string) => {
      const body = new FormData();
      body.append(field, new Blob([new Uint8Array(photo('dog.jpg').bytes)]), '');
      return body;
    };
    const refused = (field: string) => ({ status: 400, body: { detail: `The file in form field '${field}' has no file name` } });
    await unchanged(async () => {
      expect(await send('POST', `/api/v1/ingestion/${draft.dataset_id}/data_files/${transId}`, nameless('files'))).toEqual(refused('files'));
      expect(await send('POST', `${ds()}/add_media`, nameless('files'))).toEqual(refused('files'));
      expect(await send('POST', `${ds()}/custom_metadata`, nameless('file'))).toEqual(refused('file'));
      expect(await send('POST', `${ds()}/search-image-similarity`, nameless('file'))).toEqual(refused('file'));
    });
    expect(await send('POST', `/api/v1/ingestion/${draft.dataset_id}/process_files/${transId}`, undefined)).toEqual({
      status: 400,
      body: { detail: `Upload transaction ${transId} has no files; upload files in the form field 'files' first` },
    });
  });
});

describe('a JPEG+HTML polyglot', () => {
  it('is stored byte for byte and served as image/jpeg with nosniff and a sandboxing CSP, never as a page', async () => {
    const media = (await get(`${ds()}/media/${polyglotId}`)).body as { media_uri: string };
    const res = await fetch(media.media_uri);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.concat([photo('dog.jpg').bytes, HTML]))).toBe(true);
  });
});
