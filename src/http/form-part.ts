import type { Readable } from 'node:stream';

/**
 * One part of a form in body order, as services receive it (no Fastify types): a text field, or a file
 * whose stream the consumer reads (or resumes) before asking for the next part.
 */
export type FormPart = { kind: 'field'; name: string; value: string } | { kind: 'file'; field: string; fileName: string; stream: Readable };
