import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { METADATA_ENTRY } from '../../../core/exports.js';
import { FileSink } from './file-sink.js';
import type { ExportInfo, MetadataWriter } from './writers.js';

/**
 * COCO detection JSON: every image and video frame as an `images` entry (file_name = its archive name), each
 * detected object as an annotation (bbox [x, y, width, height] in the image's pixels, with its score and
 * caption), its label as a category. Images stream into the file; annotations into a second one appended at
 * the end, so neither list is held in memory.
 */
export function cocoWriter(file: string, info: ExportInfo): MetadataWriter {
  const sink = new FileSink(file);
  const annotations = new FileSink(`${file}.annotations`);
  const categories = new Map<string, number>();
  let nextImage = 1;
  let nextAnnotation = 1;
  const head = JSON.stringify({ info: { description: info.dataset, version: info.schema_version, date_created: info.export_time, contributor: info.exported_by } });
  return {
    entryName: METADATA_ENTRY.coco,
    compress: true,
    async write(row) {
      if (row.media_type === 'VIDEO') return;
      const imageId = nextImage++;
      const image = { id: imageId, file_name: row.image_filename, width: row.width, height: row.height, loupe_media_id: row.media_id, date_captured: row.captured_at };
      await sink.write(`${imageId === 1 ? `${head.slice(0, -1)},"images":[\n` : ',\n'}${JSON.stringify({ ...image, ...(row.caption ? { caption: row.caption } : {}) })}`);
      for (const object of row.objects) {
        let categoryId = categories.get(object.label);
        if (categoryId === undefined) categories.set(object.label, (categoryId = categories.size + 1));
        const [, , width, height] = object.bbox;
        const annotation = {
          id: nextAnnotation,
          image_id: imageId,
          category_id: categoryId,
          bbox: object.bbox,
          area: Math.round(width * height * 10) / 10,
          iscrowd: 0,
          score: object.score,
          loupe_object_id: object.object_id,
          ...(object.caption ? { caption: object.caption } : {}),
        };
        await annotations.write(`${nextAnnotation === 1 ? '' : ',\n'}${JSON.stringify(annotation)}`);
        nextAnnotation += 1;
      }
    },
    async finish() {
      await sink.write(`${nextImage === 1 ? `${head.slice(0, -1)},"images":[` : '\n'}],"annotations":[\n`);
      await annotations.close();
      for await (const chunk of createReadStream(annotations.path, { encoding: 'utf8' })) await sink.write(chunk as string);
      await rm(annotations.path, { force: true });
      const list = [...categories].map(([name, id]) => ({ id, name, supercategory: 'object' }));
      await sink.write(`\n],"categories":${JSON.stringify(list)}}\n`);
      await sink.close();
      return file;
    },
    dispose: () => {
      sink.dispose();
      annotations.dispose();
    },
  };
}
