import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import { ZipFile } from 'yazl';

const require = createRequire(import.meta.url);

/**
 * yazl checksums every entry with `buffer-crc32`, a table loop in JavaScript: 333 MB/s here against
 * 3,175 MB/s for Node's native zlib.crc32 (Node ≥ 20.15), and the checksum is most of the CPU an export
 * of media files spends. Both compute the same CRC-32 (test/adapters/zip-file.test.ts checks it), so
 * yazl's copy of the function is pointed at the native one, once.
 */
function useNativeCrc32(): void {
  const crc32 = require(require.resolve('buffer-crc32', { paths: [require.resolve('yazl')] })) as { unsigned: (buf: Buffer, previous?: number) => number };
  if (typeof zlib.crc32 !== 'function' || (crc32.unsigned as { native?: boolean }).native) return;
  const native = (buf: Buffer, previous?: number) => zlib.crc32(buf, previous ?? 0);
  crc32.unsigned = Object.assign(native, { native: true });
}

useNativeCrc32();

/** A streaming ZIP writer (yazl) with the native checksum. */
export function createZip(): ZipFile {
  return new ZipFile();
}
