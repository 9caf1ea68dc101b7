/**
 * OCR with tesseract.js (LSTM engine) and the English `best_int` traineddata from `@tesseract.js-data/eng`, read
 * from that package's folder (langPath is a local path, so nothing is fetched; cacheMethod 'none' writes no cache).
 * tesseract.js runs its wasm core in a worker thread of its own, spawned from the calling thread.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageRoot } from './package-paths.js';
import type { OcrResult, OcrWord } from './types.js';

const require = createRequire(import.meta.url);

/** Words tesseract is less sure of are mostly texture read as letters on photos (measured: 0–69 on dog.jpg/kite.jpg). */
export const MIN_WORD_CONFIDENCE = 70;

export interface OcrEngine {
  recognize(encoded: Buffer, scale?: number): Promise<OcrResult>;
  close(): Promise<void>;
}

interface TesseractBbox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface TesseractWord {
  text: string;
  confidence: number;
  bbox: TesseractBbox;
}
interface TesseractPage {
  blocks: Array<{ paragraphs: Array<{ lines: Array<{ words: TesseractWord[] }> }> }> | null;
}
interface TesseractWorker {
  recognize(image: Buffer, options: object, output: object): Promise<{ data: TesseractPage }>;
  terminate(): Promise<unknown>;
}
interface TesseractModule {
  createWorker(lang: string, oem: number, options: object): Promise<TesseractWorker>;
  OEM: { LSTM_ONLY: number };
}

const alnumLength = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, '').length;

/** A word worth reporting: confident, and with letters or digits in it. */
function keep(word: TesseractWord): boolean {
  return word.confidence >= MIN_WORD_CONFIDENCE && alnumLength(word.text) > 0;
}

export async function loadOcr(): Promise<OcrEngine> {
  const tesseract = require('tesseract.js') as TesseractModule;
  const langPath = path.join(packageRoot('@tesseract.js-data/eng'), '4.0.0_best_int');
  const worker = await tesseract.createWorker('eng', tesseract.OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none', logger: () => {} });
  let closed = false;
  return {
    async recognize(encoded: Buffer, scale = 1): Promise<OcrResult> {
      if (closed) throw new Error('OCR engine is closed');
      const { data } = await worker.recognize(encoded, {}, { blocks: true, text: false });
      const lines: string[] = [];
      const words: OcrWord[] = [];
      for (const block of data.blocks ?? []) {
        for (const paragraph of block.paragraphs) {
          for (const line of paragraph.lines) {
            const kept = line.words.filter(keep);
            // A line that is one lone character is, on photos, mostly a shape read as a letter.
            if (alnumLength(kept.map((w) => w.text).join('')) < 2) continue;
            lines.push(kept.map((w) => w.text).join(' '));
            for (const w of kept) {
              const { x0, y0, x1, y1 } = w.bbox;
              const box = { x: Math.round(x0 * scale), y: Math.round(y0 * scale), width: Math.round((x1 - x0) * scale), height: Math.round((y1 - y0) * scale) };
              words.push({ text: w.text, confidence: Math.round(w.confidence * 10) / 10, box });
            }
          }
        }
      }
      const confidence = words.length ? Math.round((words.reduce((s, w) => s + w.confidence, 0) / words.length) * 10) / 10 : 0;
      return { text: lines.join('\n'), confidence, words };
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await worker.terminate();
    },
  };
}
