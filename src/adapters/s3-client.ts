import { S3Client } from '@aws-sdk/client-s3';

/** An AWS_* setting, or undefined when unset or blank. */
export const setting = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);

export type S3Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string; expiration?: Date };

/** AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY when both are set; otherwise the SDK's default chain applies. */
export function staticCredentials(env: NodeJS.ProcessEnv): S3Credentials | undefined {
  const accessKeyId = setting(env.AWS_ACCESS_KEY_ID);
  const secretAccessKey = setting(env.AWS_SECRET_ACCESS_KEY);
  if (!accessKeyId || !secretAccessKey) return undefined;
  return { accessKeyId, secretAccessKey, sessionToken: setting(env.AWS_SESSION_TOKEN) };
}

export const s3Region = (env: NodeJS.ProcessEnv): string => setting(env.AWS_REGION) ?? setting(env.AWS_DEFAULT_REGION) ?? 'us-east-1';

/** AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL: an S3-compatible server's address (MinIO, Ceph, R2, s3rver). */
export const s3Endpoint = (env: NodeJS.ProcessEnv): string | undefined => setting(env.AWS_ENDPOINT_URL_S3) ?? setting(env.AWS_ENDPOINT_URL);

/**
 * A client as both the media sources and the blob store use it, from the AWS_* settings in `env` (never read from
 * process.env here). An endpoint means an S3-compatible server: addressed path-style, with no region redirects.
 */
export function s3Client(env: NodeJS.ProcessEnv, credentials: S3Credentials | (() => Promise<S3Credentials>) | undefined = staticCredentials(env)): S3Client {
  const endpoint = s3Endpoint(env);
  return new S3Client({
    region: s3Region(env),
    endpoint,
    forcePathStyle: endpoint !== undefined,
    followRegionRedirects: endpoint === undefined,
    credentials,
    // Without these the SDK adds CRC trailers that S3-compatible servers store as part of the object.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
