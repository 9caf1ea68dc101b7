import type { Multipart } from '@fastify/multipart';

/** Reads the rest of a multipart body after an error: clients that send it all before reading the answer would see a reset. */
export async function drain(parts: AsyncIterator<Multipart>): Promise<void> {
  try {
    for (let result = await parts.next(); !result.done; result = await parts.next()) {
      if (result.value.type === 'file') result.value.file.resume();
    }
  } catch {
    // The body is already broken; there is nothing left to read.
  }
}
