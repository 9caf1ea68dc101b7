import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  looksLikeMedia,
  parseS3Uri,
  S3MediaSource,
  S3SourceError,
  type RemoteObject,
} from '../../src/adapters/sources/s3-source.js';
import { S3MediaProbe } from '../../src/modules/add-media/remote-media.js';
import { startS3rver, type S3rverHandle } from './s3rver-server.js';
import { tinyParquet } from './tiny-parquet.js';

const BIG_FOLDER_SIZE = 1_050;
const bigKey = (i: number) => `big/${String(i).padStart(6, '0')}.jpg`;
const video = randomBytes(300_001);

/** Everything the tests read, by key in the bucket `media`. */
const objects: Record<string, string | Buffer> = {
  'nested/a.jpg': 'a',
  'nested/sub/': '', // a console-made folder marker
  'nested/sub/b.png': 'bb',
  'nested/sub/deeper/c.mp4': video,
  'nested-sibling/x.jpg': 'x',
  'manifests/images/one.jpg': 'one',
  'manifests/list.txt': [
    '\uFEFF# media for the test',
    '',
    's3://media/nested/a.jpg\r',
    'images/one.jpg',
    '  ../nested/sub/b.png  ',
    '/nested/sub/deeper/c.mp4',
    's3://media/missing.jpg',
  ].join('\n'),
  'manifests/with-header.csv': 'label,Path\ncat,images/one.jpg\ndog,"s3://media/nested/a.jpg"\n',
  'manifests/unnamed-header.csv': 'id,location\n1,s3://media/nested/sub/b.png\n2,s3://media/nested/a.jpg\n',
  'manifests/no-header.csv': 'images/one.jpg,cat\ns3://media/nested/a.jpg,dog\n',
  'manifests/no-uri-column.csv': 'a,b\n1,2\n',
  'manifests/http.txt': 'https://example.com/a.jpg\n',
  'manifests/reversed.txt': Array.from({ length: 40 }, (_, i) => `s3://media/${bigKey(39 - i)}`).join('\n'),
  'manifests/named.parquet': tinyParquet(
    ['label', 'Media_URI'],
    [['cat', 's3://media/nested/a.jpg'], ['dog', 'images/one.jpg'], ['', ''], ['bird', '../nested/sub/deeper/c.mp4']],
    2,
  ),
  'manifests/unnamed.parquet': tinyParquet(['id', 'where'], [['1', 's3://media/nested/sub/b.png']]),
  'manifests/broken.parquet': 'PAR1 this is not parquet PAR1',
};

let server: S3rverHandle;
let env: NodeJS.ProcessEnv;
let source: S3MediaSource;
const missing: string[] = [];

async function collect(location: string): Promise<RemoteObject[]> {
  const parsed = parseS3Uri(location);
  if (!parsed) throw new Error(`bad test URI ${location}`);
  const out: RemoteObject[] = [];
  for await (const object of source.list(parsed)) out.push(object);
  return out;
}

const keysOf = (list: RemoteObject[]) => list.map((object) => `s3://${object.bucket}/${object.key}`);

beforeAll(async () => {
  server = await startS3rver();
  env = server.env;
  const admin = server.admin();
  await admin.send(new CreateBucketCommand({ Bucket: 'media' }));
  const uploads: Array<[string, string | Buffer]> = [
    ...Object.entries(objects),
    ...Array.from({ length: BIG_FOLDER_SIZE }, (_, i): [string, string] => [bigKey(i), `image ${i}`]),
  ];
  for (let start = 0; start < uploads.length; start += 50) {
    await Promise.all(
      uploads.slice(start, start + 50).map(([Key, Body]) => admin.send(new PutObjectCommand({ Bucket: 'media', Key, Body }))),
    );
  }
  admin.destroy();
  source = await S3MediaSource.open({ env, onMissing: (uri) => missing.push(uri) });
});

afterAll(async () => {
  source?.close();
  await server?.close();
});

describe('parseS3Uri', () => {
  it.each([
    ['s3://media', { bucket: 'media', key: '' }],
    ['s3://media/', { bucket: 'media', key: '' }],
    ['s3://media/a/b/', { bucket: 'media', key: 'a/b/' }],
    ['s3://my.bucket-1/a/photo 1.jpg', { bucket: 'my.bucket-1', key: 'a/photo 1.jpg' }],
    ['  S3://media/list.csv\n', { bucket: 'media', key: 'list.csv' }],
    ['s3://media/a%20b?x#y', { bucket: 'media', key: 'a%20b?x#y' }],
  ])('reads %j', (uri, expected) => {
    expect(parseS3Uri(uri)).toEqual(expected);
  });

  it.each([
    '',
    'media/a.jpg',
    'http://media/a.jpg',
    's3:/media/a.jpg',
    's3://',
    's3:///a.jpg',
    's3://ab/a.jpg',
    's3://Media/a.jpg',
    's3://bad!bucket/a.jpg',
    's3://-media/a.jpg',
    's3://me..dia/a.jpg',
    's3://media/a\nb.jpg',
    `s3://media/${'k'.repeat(1025)}`,
  ])('rejects %j', (uri) => {
    expect(parseS3Uri(uri)).toBeNull();
  });

  it('tells media files by extension', () => {
    expect(['a/B.JPG', 'x.heic', 'clip.MKV', 'scan.tiff'].every(looksLikeMedia)).toBe(true);
    expect(['notes.txt', 'jpg', 'photo.jpg/', 'a.jpg.zip'].some(looksLikeMedia)).toBe(false);
  });
});

describe('S3MediaSource folders', () => {
  it('lists a folder of more than 1,000 objects, all pages, in key order', async () => {
    const listed = await collect('s3://media/big/');
    expect(listed).toHaveLength(BIG_FOLDER_SIZE);
    expect(listed.map((object) => object.key)).toEqual(Array.from({ length: BIG_FOLDER_SIZE }, (_, i) => bigKey(i)));
    expect(listed[7]).toEqual({ bucket: 'media', key: bigKey(7), size: 'image 7'.length, fileName: '000007.jpg' });
  });

  it('lists nested prefixes, skips folder markers and stays inside the folder', async () => {
    const expected = ['s3://media/nested/a.jpg', 's3://media/nested/sub/b.png', 's3://media/nested/sub/deeper/c.mp4'];
    expect(keysOf(await collect('s3://media/nested/'))).toEqual(expected);
    expect(keysOf(await collect('s3://media/nested'))).toEqual(expected);
    const sizes = (await collect('s3://media/nested/sub')).map(({ fileName, size }) => [fileName, size]);
    expect(sizes).toEqual([['b.png', 2], ['c.mp4', video.length]]);
  });

  it('lists a whole bucket', async () => {
    expect((await collect('s3://media')).length).toBe(Object.keys(objects).length - 1 + BIG_FOLDER_SIZE);
  });

  it('streams object bytes unchanged', async () => {
    expect((await buffer(await source.open({ bucket: 'media', key: 'nested/sub/deeper/c.mp4' }))).equals(video)).toBe(true);
    expect((await buffer(await source.open({ bucket: 'media', key: 'nested/a.jpg' }))).toString()).toBe('a');
  });
});

describe('S3MediaSource manifests', () => {
  it('reads a .txt manifest: comments, blank lines, CRLF, relative and root keys; skips missing objects', async () => {
    missing.length = 0;
    const listed = await collect('s3://media/manifests/list.txt');
    expect(keysOf(listed)).toEqual([
      's3://media/nested/a.jpg',
      's3://media/manifests/images/one.jpg',
      's3://media/nested/sub/b.png',
      's3://media/nested/sub/deeper/c.mp4',
    ]);
    expect(listed.map((object) => object.size)).toEqual([1, 3, 2, video.length]);
    expect(missing).toEqual(['s3://media/missing.jpg']);
  });

  it('keeps manifest order with many HEADs in flight', async () => {
    const listed = await collect('s3://media/manifests/reversed.txt');
    expect(listed.map((object) => object.key)).toEqual(Array.from({ length: 40 }, (_, i) => bigKey(39 - i)));
  });

  it.each([
    ['with-header.csv', ['s3://media/manifests/images/one.jpg', 's3://media/nested/a.jpg']],
    ['unnamed-header.csv', ['s3://media/nested/sub/b.png', 's3://media/nested/a.jpg']],
    ['no-header.csv', ['s3://media/manifests/images/one.jpg', 's3://media/nested/a.jpg']],
  ])('reads the URI column of %s', async (name, expected) => {
    expect(keysOf(await collect(`s3://media/manifests/${name}`))).toEqual(expected);
  });

  it('reads a .parquet manifest across row groups, by column name or by s3:// values', async () => {
    expect(keysOf(await collect('s3://media/manifests/named.parquet'))).toEqual([
      's3://media/nested/a.jpg',
      's3://media/manifests/images/one.jpg',
      's3://media/nested/sub/deeper/c.mp4',
    ]);
    expect(keysOf(await collect('s3://media/manifests/unnamed.parquet'))).toEqual(['s3://media/nested/sub/b.png']);
  });
});

describe('S3MediaSource errors', () => {
  const rejects = (uri: string, reason: RegExp) =>
    expect(collect(uri)).rejects.toThrow(
      expect.objectContaining({ name: 'S3SourceError', message: expect.stringMatching(reason) }),
    );

  it.each([
    ['s3://no-such-bucket/photos/', /^bucket no-such-bucket does not exist$/],
    ['s3://no-such-bucket/list.csv', /^bucket no-such-bucket does not exist$/],
    ['s3://no-such-bucket/list.parquet', /^bucket no-such-bucket does not exist$/],
    ['s3://media/manifests/absent.csv', /^manifest s3:\/\/media\/manifests\/absent.csv not found$/],
    ['s3://media/manifests/absent.txt', /not found$/],
    ['s3://media/manifests/absent.parquet', /^manifest s3:\/\/media\/manifests\/absent.parquet not found$/],
    ['s3://media/manifests/broken.parquet', /^cannot read manifest s3:\/\/media\/manifests\/broken.parquet: /],
    ['s3://media/manifests/no-uri-column.csv', /has no column of media URIs/],
    ['s3://media/manifests/http.txt', /lists a URI that is not s3:\/\//],
  ])('%s', async (uri, reason) => {
    await rejects(uri, reason);
  });

  it('fails to open a missing object with a reason', async () => {
    const opening = source.open({ bucket: 'media', key: 'nope.jpg' });
    await expect(opening).rejects.toBeInstanceOf(S3SourceError);
    await expect(opening).rejects.toThrow('object s3://media/nope.jpg not found');
  });

  it('passes an abort through unwrapped', async () => {
    const controller = new AbortController();
    controller.abort();
    const aborted = await S3MediaSource.open({ env, signal: controller.signal });
    await expect(aborted.list({ bucket: 'media', key: 'big/' }).next()).rejects.toMatchObject({ name: 'AbortError' });
    aborted.close();
  });

  it('lets a caller stop reading a manifest early', async () => {
    for await (const object of source.list({ bucket: 'media', key: 'manifests/with-header.csv' })) {
      expect(object.fileName).toBe('one.jpg');
      break;
    }
    expect(await collect('s3://media/manifests/with-header.csv')).toHaveLength(2);
  });

  it('marks refused credentials as an access error, and a missing bucket as not one', async () => {
    const refused = await S3MediaSource.open({ env: { ...env, AWS_ACCESS_KEY_ID: 'NOT-A-KEY' } });
    await expect(refused.list({ bucket: 'media', key: 'big/' }).next()).rejects.toMatchObject({
      name: 'S3SourceError',
      access: true,
      message: 'S3 rejected the credentials for s3://media/big/ (InvalidAccessKeyId)',
    });
    refused.close();
    await expect(collect('s3://no-such-bucket/photos/')).rejects.toMatchObject({ access: false });
  });

  it('add_media\'s probe answers with the spec\'s text and logs the cause it hides', async () => {
    const logged: Array<[object, string]> = [];
    const probe = new S3MediaProbe({ ...env, AWS_ACCESS_KEY_ID: 'NOT-A-KEY' }, { warn: (fields: object, message: string) => logged.push([fields, message]) } as never);
    await expect(probe.requireMedia('s3://media/big/', null)).rejects.toMatchObject({
      status: 400,
      detail: 'Invalid S3 URI or no media files found at s3://media/big/',
    });
    expect(logged).toEqual([
      [
        { uri: 's3://media/big/', cause: 'S3 rejected the credentials for s3://media/big/ (InvalidAccessKeyId)', access_error: true },
        'add_media: object storage refused access',
      ],
    ]);
  });

  it('reports a role that cannot be assumed', async () => {
    const opening = S3MediaSource.open({
      env: { ...env, AWS_ENDPOINT_URL: env.AWS_ENDPOINT_URL_S3 }, // STS goes to s3rver, which has no STS
      assumeRole: 'arn:aws:iam::123456789012:role/x',
    });
    await expect(opening).rejects.toThrow(/^cannot assume role arn:aws:iam::123456789012:role\/x: /);
  });
});
