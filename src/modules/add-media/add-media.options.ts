import { errors } from '../../core/errors.js';

/** The optional form fields of add_media (spec 4.7), validated; recorded on the task. */
export interface AddMediaOptions {
  auto_reindex: boolean;
  /** Role to assume through STS before reading the bucket. */
  assume_role: string | null;
  /** Upper bounds on how many videos / images are processed at once by this batch (the pool size here). */
  batch_n_videos: number | null;
  batch_n_images: number | null;
  /** Recorded only: objects exist once enrichment detects them, and this server has no separate object workers. */
  batch_n_objects: number | null;
  /** Recorded only: there are no spot instances to schedule on in a self-hosted install. */
  use_spot: boolean | null;
}

export const OPTION_FIELDS = ['auto_reindex', 'assume_role', 'batch_n_videos', 'batch_n_images', 'batch_n_objects', 'use_spot'] as const;

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

function boolean(name: string, raw: string | undefined): boolean | null {
  if (raw === undefined || raw.trim() === '' || raw.trim() === 'null') return null;
  const v = raw.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw errors.validation(`${name} must be true or false, got '${raw}'`);
}

function count(name: string, raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '' || raw.trim() === 'null') return null;
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw errors.validation(`${name} must be a whole number from 1 to 1000000, got '${raw}'`);
  return n;
}

/** An IAM role ARN (aws, aws-cn, aws-us-gov partitions). */
const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;

export function parseAddMediaOptions(fields: Record<string, string>): AddMediaOptions {
  const role = fields.assume_role?.trim() || null;
  if (role !== null && role !== 'null' && !ROLE_ARN.test(role)) throw errors.validation(`assume_role must be an IAM role ARN (arn:aws:iam::<account>:role/<name>), got '${role}'`);
  return {
    auto_reindex: boolean('auto_reindex', fields.auto_reindex) ?? false,
    assume_role: role === 'null' ? null : role,
    batch_n_videos: count('batch_n_videos', fields.batch_n_videos),
    batch_n_images: count('batch_n_images', fields.batch_n_images),
    batch_n_objects: count('batch_n_objects', fields.batch_n_objects),
    use_spot: boolean('use_spot', fields.use_spot),
  };
}
