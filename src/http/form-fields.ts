import type { FastifyRequest } from 'fastify';
import { readForm } from './multipart.js';

/** Text fields of a form sent as multipart, urlencoded or JSON (documented clients use all three); files are refused. */
export async function readFormFields(request: FastifyRequest, fields?: readonly string[]): Promise<Record<string, string>> {
  return readForm(request, { fields }, async (parts) => {
    const values: Record<string, string> = {};
    for await (const part of parts) if (part.kind === 'field') values[part.name] = part.value;
    return values;
  });
}
