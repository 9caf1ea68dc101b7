import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived signed URLs for media bytes, so an `<img src>` works without a bearer header.
 * The signing key is derived from the server key and used for nothing else.
 */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(serverKey: Buffer) {
    this.key = createHmac('sha256', serverKey).update('loupe media url v1').digest();
  }

  sign(resource: string, expiresAt: number): string {
    return createHmac('sha256', this.key).update(`${resource}\n${expiresAt}`).digest('base64url');
  }

  verify(resource: string, expiresAt: number, signature: string, now = Date.now() / 1000): boolean {
    if (!Number.isInteger(expiresAt) || expiresAt < now) return false;
    const expected = Buffer.from(this.sign(resource, expiresAt));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
