import type { FastifyRequest } from 'fastify';
import { errors } from '../core/errors.js';

/** Text fields of a form sent as multipart, urlencoded or JSON; documented clients use all three. */
export async function readFormFields(request: FastifyRequest): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  if (request.isMultipart()) {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        part.file.resume();
        throw errors.validation(`Unexpected file in field ${part.fieldname}`);
      }
      fields[part.fieldname] = String(part.value);
    }
    return fields;
  }
  const body = request.body;
  if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = String(value);
    }
  }
  return fields;
}
