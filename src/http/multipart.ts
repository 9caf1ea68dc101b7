import { PassThrough, type Readable, type Transform } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, errors } from '../core/errors.js';
import { watchClosingBoundary } from './closing-boundary.js';
import type { FormPart } from './form-part.js';
import type { ReadPriority } from './read-priority.js';

export type { FormPart } from './form-part.js';

export interface FileField {
  /** How many files the field may carry, and the error for one more. */
  max: number;
  tooMany: () => AppError;
  /** The error when the body ends without a file in this field; absent where the file is optional. */
  missing?: () => AppError;
}

/** What a route's form may hold; the limits come from the configuration through the route's service. */
export interface FormShape {
  /** The file fields; a file in any other field is refused, with `otherFile` where the form names its one file in its own message. */
  files?: Record<string, FileField>;
  otherFile?: (field: string) => AppError;
  /** The error for a text field sent twice, where the form has its own (add_media: two s3_uri are two sources). */
  duplicateField?: (field: string) => AppError;
  /** The text fields; absent: any text field is passed on (add_media's optional parameters), present: others are refused. */
  fields?: readonly string[];
  /** Bytes one file may have: the service's own check runs first, the parser's limit is one byte above it. */
  maxFileBytes?: number;
}

/**
 * Reads a form the one way every route does: multipart parts, or the fields of a urlencoded or JSON body,
 * checked against `shape` (unknown, repeated and missing fields answer from the error catalogue). When
 * `consume` fails the rest of the body is read first, since clients that send it all before reading the
 * answer would otherwise see a reset; a body the parser cannot read is a 400, never a 500.
 */
export async function readForm<T>(request: FastifyRequest, shape: FormShape, consume: (parts: AsyncIterable<FormPart>) => Promise<T>): Promise<T> {
  if (!request.isMultipart()) return consume(checked(bodyParts(request.body), shape));
  const broken: Broken = {};
  const fileFields = Object.values(shape.files ?? {});
  const files = Math.min(fileFields.reduce((sum, f) => sum + f.max, 0) + 1, Number.MAX_SAFE_INTEGER);
  const raw = request.parts({ limits: { files, ...(shape.maxFileBytes ? { fileSize: shape.maxFileBytes + 1 } : {}) } })[Symbol.asyncIterator]();
  try {
    return await consume(checked(multipartParts(raw, broken, () => watchClosingBoundary(request), request.server.readPriority ?? null), shape));
  } catch (err) {
    // The parser waits until the file it last handed out is read: a consumer that failed before reading it would hang the drain.
    broken.lastFile?.unpipe();
    broken.lastFile?.resume();
    await drain(raw);
    throw broken.error && !(err instanceof AppError) ? errors.malformedMultipart(broken.error.message) : err;
  }
}

/** The text fields of a urlencoded or JSON body as parts (a repeated urlencoded key arrives as an array). */
async function* bodyParts(body: unknown): AsyncGenerator<FormPart> {
  if (!body || typeof body !== 'object') return;
  for (const [name, value] of Object.entries(body)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (typeof one === 'string' || typeof one === 'number' || typeof one === 'boolean') yield { kind: 'field', name, value: String(one) };
    }
  }
}

interface Broken {
  /** The first error a file stream ended with: the body broke off inside a file. */
  error?: Error;
  lastFile?: Readable;
}

/** Multipart parts as FormParts; what the parser throws, or a file stream ends early with, is a malformed body. */
function multipartParts(raw: AsyncIterator<Multipart>, broken: Broken, watch: () => () => boolean, priority: ReadPriority | null): AsyncIterable<FormPart> {
  let closed: (() => boolean) | undefined;
  return {
    [Symbol.asyncIterator]: () => ({
      async next(): Promise<IteratorResult<FormPart>> {
        let result: IteratorResult<Multipart>;
        try {
          const pending = raw.next();
          // The first next() pipes the request into the parser, synchronously: watching from here sees every chunk.
          closed ??= watch();
          result = await pending;
        } catch (err) {
          throw parserError(err);
        }
        // The parser ends quietly when the body stops before its closing boundary; a cut-off upload is not a complete form.
        if (result.done && !closed()) throw errors.malformedMultipart('the body ended before its closing boundary');
        if (result.done) return { done: true, value: undefined };
        const part = result.value;
        if (part.type === 'field') return { done: false, value: { kind: 'field', name: part.fieldname, value: String(part.value) } };
        part.file.on('error', (err) => (broken.error ??= err));
        broken.lastFile = part.file;
        return { done: false, value: { kind: 'file', field: part.fieldname, fileName: part.filename ?? '', stream: shield(part.file, priority) } };
      },
      // Stopping early leaves the parser open, so that readForm can drain what is left.
      async return(): Promise<IteratorResult<FormPart>> {
        return { done: true, value: undefined };
      },
    }),
  };
}

/** The parser's own limit errors carry their status (413); anything else it throws means the body is not valid multipart. */
function parserError(err: unknown): unknown {
  if (err instanceof AppError || (err instanceof Error && 'statusCode' in err)) return err;
  return errors.malformedMultipart(err instanceof Error ? err.message : String(err));
}

/** Applies the shape as the parts go by, so a wrong field is refused before the bytes after it are read. */
function checked(parts: AsyncIterable<FormPart>, shape: FormShape): AsyncIterable<FormPart> {
  const fileFields = shape.files ?? {};
  const fileCounts = new Map<string, number>();
  const seenFields = new Set<string>();
  return {
    [Symbol.asyncIterator]: () => {
      const inner = parts[Symbol.asyncIterator]();
      return {
        async next(): Promise<IteratorResult<FormPart>> {
          const result = await inner.next();
          if (result.done) {
            for (const [name, field] of Object.entries(fileFields)) if (field.missing && !fileCounts.get(name)) throw field.missing();
            return result;
          }
          const part = result.value;
          if (part.kind === 'field') {
            if (shape.fields && !shape.fields.includes(part.name)) throw errors.unexpectedFormField(part.name, shape.fields);
            if (seenFields.has(part.name)) throw (shape.duplicateField ?? errors.duplicateFormField)(part.name);
            if (part.value.includes('\0')) throw errors.nulInField(part.name);
            seenFields.add(part.name);
            return result;
          }
          const count = (fileCounts.get(part.field) ?? 0) + 1;
          fileCounts.set(part.field, count);
          const refusal = fileRefusal(part.field, part.fileName, count, shape);
          if (refusal) {
            part.stream.resume();
            throw refusal;
          }
          return result;
        },
        async return(): Promise<IteratorResult<FormPart>> {
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Why a file part is refused, or null: a field the form does not take, one file too many, no name or a NUL in it. */
function fileRefusal(name: string, fileName: string, count: number, shape: FormShape): AppError | null {
  const field = shape.files?.[name];
  if (!field) {
    if (shape.otherFile) return shape.otherFile(name);
    const expected = Object.keys(shape.files ?? {});
    return name === 'files[]' && expected.includes('files') ? errors.wrongFilesField() : errors.unexpectedFileField(name, expected);
  }
  if (count > field.max) return field.tooMany();
  // The parser gives no name for `filename=""`: a file is named by its name (media file_name, the metadata format).
  if (!fileName) return errors.fileNameMissing(name);
  if (fileName.includes('\0')) return errors.nulInForm(`The file name in field '${name}'`);
  return null;
}

/** Reads the rest of a multipart body after an error. */
async function drain(parts: AsyncIterator<Multipart>): Promise<void> {
  try {
    for (let result = await parts.next(); !result.done; result = await parts.next()) {
      if (result.value.type === 'file') result.value.file.resume();
    }
  } catch {
    // The body is already broken; there is nothing left to read.
  }
}

/**
 * What a consumer gets instead of the parser's file stream. The blob store and the spool destroy a stream they refuse,
 * and the parser then waits forever for the destroyed part to be read (a non-media file over ~64 KB got no answer):
 * once the consumer's stream closes early, the rest of the part is read and dropped here.
 */
function shield(part: Readable, priority: ReadPriority | null): PassThrough | Transform {
  const shielded = priority?.gate() ?? new PassThrough();
  // pipe() passes neither errors nor an early close on: a body cut off inside the part must still fail its reader.
  part.once('error', (err) => shielded.destroy(err));
  part.once('close', () => {
    if (!part.readableEnded) shielded.destroy(part.errored ?? new Error('the file part ended before its data'));
  });
  shielded.once('close', () => {
    if (part.readableEnded) return;
    part.unpipe(shielded);
    part.resume();
  });
  return part.pipe(shielded);
}
