import { S3MediaSource, S3SourceError, looksLikeMedia, parseS3Uri } from '../../adapters/sources/s3-source.js';
import type { Logger } from 'pino';
import { errors } from '../../core/errors.js';

/** Checks, before a batch is accepted, that an object-storage URI is valid and leads to media. */
export interface RemoteMediaProbe {
  requireMedia(uri: string, assumeRole: string | null): Promise<void>;
}

/** Lists until the first media object (a folder of a million keys is not read whole in the request). */
export class S3MediaProbe implements RemoteMediaProbe {
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  async requireMedia(uri: string, assumeRole: string | null): Promise<void> {
    const location = parseS3Uri(uri);
    if (!location) throw errors.noMediaAt(uri);
    let source: S3MediaSource | undefined;
    try {
      source = await S3MediaSource.open({ env: this.env, assumeRole });
      for await (const object of source.list(location)) if (looksLikeMedia(object.key)) return;
    } catch (err) {
      if (err instanceof S3SourceError) {
        // The spec fixes the answer's text, so the real cause (a missing bucket, refused credentials) goes to the log.
        this.log.warn({ uri, cause: err.message, access_error: err.access }, err.access ? 'add_media: object storage refused access' : 'add_media: object storage could not be read');
        throw errors.noMediaAt(uri);
      }
      throw errors.pipelineFailed(`Object storage could not be read at ${uri}: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      source?.close();
    }
    throw errors.noMediaAt(uri);
  }
}
