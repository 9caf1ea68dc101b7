import type { Readable } from 'node:stream';
import { SpooledFile, UploadTooLargeError } from '../../adapters/uploads/spooled-file.js';
import type { CropBox } from '../../adapters/media/image.js';
import { errors } from '../../core/errors.js';
import type { FormPart } from '../../http/form-part.js';

/** The anchor form's shape: one image in 'file' and an optional 'bounding_box' (other text fields are ignored, as they always were). */
export function anchorFormShape(maxFileBytes: number) {
  return {
    maxFileBytes,
    files: { file: { max: 1, tooMany: () => errors.oneFilePerField('file'), missing: errors.imageRequired } },
    otherFile: errors.imageRequired,
  };
}

/** Keeps the uploaded image on disk (decoding needs a path) while `use` runs, with the box read from the form. */
export async function withAnchorUpload<T>(
  parts: AsyncIterable<FormPart>,
  maxFileBytes: number,
  use: (file: { path: string; fileName: string }, crop: CropBox | undefined) => Promise<T>,
): Promise<T> {
  let file: SpooledFile | undefined;
  try {
    let box: string | undefined;
    for await (const part of parts) {
      if (part.kind === 'field') {
        if (part.name === 'bounding_box') box = part.value;
      } else file = await spool(part.stream, part.fileName || 'anchor', maxFileBytes);
    }
    if (!file) throw errors.imageRequired();
    return await use({ path: file.path, fileName: file.name }, box === undefined || box.trim() === '' ? undefined : parseBox(box));
  } finally {
    await file?.dispose();
  }
}

async function spool(stream: Readable, fileName: string, maxFileBytes: number): Promise<SpooledFile> {
  try {
    return await SpooledFile.spool(stream, fileName, maxFileBytes);
  } catch (err) {
    stream.resume();
    throw err instanceof UploadTooLargeError ? errors.fileTooLarge(fileName, maxFileBytes) : err;
  }
}

/** `x,y,width,height`, a JSON array of those four, or a JSON object {x, y, width, height}; pixels of the image. */
function parseBox(text: string): CropBox {
  let values: unknown;
  try {
    const parsed: unknown = JSON.parse(text.trim().startsWith('[') || text.trim().startsWith('{') ? text : `[${text}]`);
    values = Array.isArray(parsed) ? parsed : [(parsed as Record<string, unknown>).x, (parsed as Record<string, unknown>).y, (parsed as Record<string, unknown>).width, (parsed as Record<string, unknown>).height];
  } catch {
    values = null;
  }
  if (!Array.isArray(values) || values.length !== 4 || !values.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0) || !(values[2] > 0 && values[3] > 0)) {
    throw errors.validation('bounding_box must be x,y,width,height: four non-negative numbers, width and height above 0');
  }
  const [left, top, width, height] = values as number[];
  return { left: left!, top: top!, width: width!, height: height! };
}
