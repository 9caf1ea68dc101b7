import { Readable } from 'node:stream';
import {
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { type S3Credentials, s3Client, s3Endpoint, s3Region, setting, staticCredentials } from '../s3-client.js';
import { cachedAsyncBuffer, type AsyncBuffer } from 'hyparquet';
import {
  fileNameOf,
  formatS3Uri,
  isFolderKey,
  manifestKind,
  oneLine,
  resolveManifestEntry,
  S3SourceError,
  type ManifestKind,
  type S3Location,
} from './s3-location.js';
import { readCsvManifest, readParquetManifest, readTextManifest } from './s3-manifest.js';

export { looksLikeMedia, parseS3Uri, S3SourceError, type S3Location } from './s3-location.js';

export interface S3SourceOptions {
  /** Read for region, endpoint and static credentials; without AWS_ACCESS_KEY_ID the SDK's default chain applies. */
  env: NodeJS.ProcessEnv;
  /** A role ARN to assume through STS before any S3 call (cross-account access). */
  assumeRole?: string | null;
  signal?: AbortSignal;
  /** Told about each manifest entry whose object does not exist; such entries are skipped. */
  onMissing?: (uri: string) => void;
}

export interface RemoteObject {
  bucket: string;
  key: string;
  size: number;
  /** The key's last path segment. */
  fileName: string;
}

/** HeadObject requests in flight while a manifest is read. */
const HEAD_CONCURRENCY = 16;
const ROLE_SESSION_NAME = 'loupe-add-media';

type Settled = { object: RemoteObject | null } | { error: unknown };

/** Media listed by an add_media `s3_uri`: every object under a folder, or every entry of a manifest. */
export class S3MediaSource {
  private constructor(
    private readonly client: S3Client,
    private readonly options: S3SourceOptions,
  ) {}

  static async open(options: S3SourceOptions): Promise<S3MediaSource> {
    const { env } = options;
    const endpoint = s3Endpoint(env);
    if (endpoint !== undefined && !URL.canParse(endpoint)) {
      throw new S3SourceError(`S3 endpoint ${JSON.stringify(endpoint)} is not a URL`);
    }
    let credentials: S3Credentials | (() => Promise<S3Credentials>) | undefined = staticCredentials(env);
    if (options.assumeRole) credentials = await assumedRole(options, s3Region(env), credentials);
    const client = s3Client(env, credentials);
    return new S3MediaSource(client, options);
  }

  /**
   * Every object the location denotes, in a stable order: a folder's objects in key order (all pages; keys
   * ending '/' skipped), or a manifest's entries in manifest order with their sizes from HeadObject.
   * A location that is neither a folder nor a manifest is read as the folder `key + '/'`.
   */
  async *list(location: S3Location): AsyncGenerator<RemoteObject> {
    const kind = isFolderKey(location.key) ? null : manifestKind(location.key);
    if (kind) yield* this.listManifest(location, kind);
    else yield* this.listFolder(location);
  }

  /** The object's bytes as a stream. */
  async open(object: Pick<RemoteObject, 'bucket' | 'key'>): Promise<Readable> {
    const location = { bucket: object.bucket, key: object.key };
    const output = await this.call(location, 'object', () =>
      this.client.send(new GetObjectCommand({ Bucket: location.bucket, Key: location.key }), this.sendOptions()),
    );
    if (!(output.Body instanceof Readable)) throw new S3SourceError(`object ${formatS3Uri(location)} has no body`);
    return output.Body;
  }

  close(): void {
    this.client.destroy();
  }

  private async *listFolder({ bucket, key }: S3Location): AsyncGenerator<RemoteObject> {
    const prefix = isFolderKey(key) ? key : `${key}/`;
    const folder = { bucket, key: prefix };
    let token: string | undefined;
    do {
      const command = new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken: token });
      const page = await this.call(folder, 'folder', () => this.client.send(command, this.sendOptions()));
      for (const item of page.Contents ?? []) {
        if (item.Key === undefined || isFolderKey(item.Key)) continue;
        yield { bucket, key: item.Key, size: item.Size ?? 0, fileName: fileNameOf(item.Key) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
      if (page.IsTruncated && !token) {
        throw new S3SourceError(`listing ${formatS3Uri(folder)} stopped without a continuation token`);
      }
    } while (token);
  }

  private async *listManifest(manifest: S3Location, kind: ManifestKind): AsyncGenerator<RemoteObject> {
    const name = formatS3Uri(manifest);
    const inFlight: Promise<Settled>[] = [];
    const take = async () => {
      const settled = await (inFlight.shift() as Promise<Settled>);
      if ('error' in settled) throw settled.error;
      return settled.object;
    };
    try {
      for await (const entry of await this.manifestEntries(manifest, kind)) {
        const target = resolveManifestEntry(entry, manifest);
        if (isFolderKey(target.key)) continue;
        inFlight.push(this.head(target));
        if (inFlight.length < HEAD_CONCURRENCY) continue;
        const object = await take();
        if (object) yield object;
      }
      while (inFlight.length > 0) {
        const object = await take();
        if (object) yield object;
      }
    } catch (error) {
      if (error instanceof S3SourceError || isAbort(error)) throw error;
      throw new S3SourceError(`cannot read manifest ${name}: ${oneLine(errorMessage(error))}`, { cause: error });
    }
  }

  private async manifestEntries(manifest: S3Location, kind: ManifestKind): Promise<AsyncIterable<string>> {
    const name = formatS3Uri(manifest);
    if (kind === 'parquet') return readParquetManifest(await this.parquetFile(manifest), name);
    const output = await this.call(manifest, 'manifest', () =>
      this.client.send(new GetObjectCommand({ Bucket: manifest.bucket, Key: manifest.key }), this.sendOptions()),
    );
    if (!(output.Body instanceof Readable)) throw new S3SourceError(`manifest ${name} has no body`);
    return kind === 'csv' ? readCsvManifest(output.Body, name) : readTextManifest(output.Body);
  }

  /** The manifest as hyparquet's AsyncBuffer: ranged GetObject reads pinned to the ETag seen first. */
  private async parquetFile(manifest: S3Location): Promise<AsyncBuffer> {
    const { bucket: Bucket, key: Key } = manifest;
    const head = await this.call(manifest, 'manifest', async () => {
      try {
        return await this.client.send(new HeadObjectCommand({ Bucket, Key }), this.sendOptions());
      } catch (error) {
        // HEAD answers a bare 404 for a missing bucket too; ask the bucket to tell the two apart.
        if (statusOf(error) !== 404) throw error;
        const bucket = await this.client.send(new HeadBucketCommand({ Bucket }), this.sendOptions()).then(
          () => 'exists',
          (bucketError: unknown) => (statusOf(bucketError) === 404 ? 'missing' : 'unknown'),
        );
        throw bucket === 'missing' ? new S3SourceError(`bucket ${Bucket} does not exist`) : error;
      }
    });
    const byteLength = head.ContentLength ?? 0;
    return cachedAsyncBuffer({
      byteLength,
      slice: async (start, end = byteLength) => {
        if (end <= start) return new ArrayBuffer(0);
        const range = new GetObjectCommand({ Bucket, Key, Range: `bytes=${start}-${end - 1}`, IfMatch: head.ETag });
        const output = await this.call(manifest, 'manifest', () => this.client.send(range, this.sendOptions()));
        const bytes = (await output.Body?.transformToByteArray()) ?? new Uint8Array();
        return bytes.slice().buffer;
      },
    });
  }

  /** Never rejects, so a failure waiting behind another in the window is not an unhandled rejection. */
  private async head(target: S3Location): Promise<Settled> {
    try {
      const output = await this.client.send(
        new HeadObjectCommand({ Bucket: target.bucket, Key: target.key }),
        this.sendOptions(),
      );
      return { object: { ...target, size: output.ContentLength ?? 0, fileName: fileNameOf(target.key) } };
    } catch (error) {
      if (statusOf(error) !== 404) return { error: sourceError(error, target, 'object') };
      this.options.onMissing?.(formatS3Uri(target));
      return { object: null };
    }
  }

  private async call<T>(location: S3Location, subject: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw sourceError(error, location, subject);
    }
  }

  private sendOptions() {
    return { abortSignal: this.options.signal };
  }
}

/** Assumes the role once now (to fail fast), then again whenever the SDK finds the credentials near expiry. */
async function assumedRole(
  options: S3SourceOptions,
  region: string,
  base: S3Credentials | undefined,
): Promise<() => Promise<S3Credentials>> {
  const roleArn = options.assumeRole as string;
  const endpoint = setting(options.env.AWS_ENDPOINT_URL_STS) ?? setting(options.env.AWS_ENDPOINT_URL);
  const sts = new STSClient({ region, endpoint, credentials: base });
  const assume = async (): Promise<S3Credentials> => {
    try {
      const command = new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: ROLE_SESSION_NAME });
      const { Credentials: issued } = await sts.send(command, { abortSignal: options.signal });
      if (!issued?.AccessKeyId || !issued.SecretAccessKey) throw new Error('STS returned no credentials');
      return {
        accessKeyId: issued.AccessKeyId,
        secretAccessKey: issued.SecretAccessKey,
        sessionToken: issued.SessionToken,
        expiration: issued.Expiration,
      };
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new S3SourceError(`cannot assume role ${roleArn}: ${oneLine(errorMessage(error))}`, { cause: error, access: true });
    }
  };
  let first: Promise<S3Credentials> | null = assume();
  await first;
  return () => {
    const next = first ?? assume();
    first = null;
    return next;
  };
}

type SdkError = { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };

const statusOf = (error: unknown): number | undefined => (error as SdkError | null)?.$metadata?.httpStatusCode;

const isAbort = (error: unknown): boolean => (error as SdkError | null)?.name === 'AbortError';

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH']);

/** An SDK failure as a one-line reason; aborts and our own errors pass through unchanged. */
function sourceError(error: unknown, location: S3Location, subject: string): unknown {
  if (error instanceof S3SourceError || isAbort(error)) return error;
  const { name = 'Error', code, message = '' } = (error ?? {}) as SdkError;
  const status = statusOf(error);
  const uri = formatS3Uri(location);
  let reason: string;
  let access = false;
  if (name === 'NoSuchBucket') reason = `bucket ${location.bucket} does not exist`;
  else if (name === 'NoSuchKey' || status === 404) reason = `${subject} ${uri} not found`;
  else if (['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken'].includes(name)) {
    reason = `S3 rejected the credentials for ${uri} (${name})`;
    access = true;
  } else if (name === 'AccessDenied' || status === 403) {
    reason = `access denied to ${uri}`;
    access = true;
  } else if (name === 'CredentialsProviderError') {
    reason = `no S3 credentials found: ${message}`;
    access = true;
  } else if (code && NETWORK_CODES.has(code)) reason = `cannot reach S3 for ${uri} (${code})`;
  else reason = `cannot read ${subject} ${uri}: ${name}${message ? `: ${message}` : ''}`;
  return new S3SourceError(oneLine(reason), { cause: error, access });
}
