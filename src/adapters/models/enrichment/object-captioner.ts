/** CAPTION_OBJECTS: a caption per detected object from measured facts only (label, size, position, colour, text). */
import type { RgbImage } from '../embedder.js';
import { dominantColour } from './colors.js';
import type { Box, OcrWord } from './types.js';

export interface ObjectCaption {
  caption: string;
  dominant_color: string;
  text?: string;
}

/** Share of the image the box covers, as a word. */
export function sizeWord(box: Box, width: number, height: number): string {
  const share = (box.width * box.height) / (width * height);
  if (share < 0.03) return 'small';
  if (share < 0.2) return 'medium-sized';
  return 'large';
}

/** Where the box's centre lies on a 3×3 grid, as a phrase. */
export function positionPhrase(box: Box, width: number, height: number): string {
  const cx = (box.x + box.width / 2) / width;
  const cy = (box.y + box.height / 2) / height;
  const col = cx < 1 / 3 ? 'left' : cx > 2 / 3 ? 'right' : 'centre';
  const row = cy < 1 / 3 ? 'top' : cy > 2 / 3 ? 'bottom' : 'middle';
  if (row === 'middle' && col === 'centre') return 'in the centre';
  if (row === 'middle') return `on the ${col}`;
  if (col === 'centre') return `at the ${row}`;
  return `at the ${row} ${col}`;
}

/** OCR words whose centre lies inside the box, in reading order as tesseract gave them. */
export function textInside(box: Box, words: readonly OcrWord[]): string | undefined {
  const inside = words.filter((w) => {
    const cx = w.box.x + w.box.width / 2;
    const cy = w.box.y + w.box.height / 2;
    return cx >= box.x && cx <= box.x + box.width && cy >= box.y && cy <= box.y + box.height;
  });
  const text = inside.map((w) => w.text).join(' ').trim();
  return text || undefined;
}

export function quote(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}

/**
 * `box` is in input pixels, `rgb` may be a shrunk copy (`scale` = input px per rgb px); `words` are in input pixels.
 * Example: `A large white dog at the bottom left (score 0.39); text reads "SALE".`
 */
export function captionObject(
  object: { label: string; score: number; box: Box },
  rgb: RgbImage,
  scale: number,
  size: { width: number; height: number },
  words: readonly OcrWord[] | undefined,
): ObjectCaption {
  const rgbBox = { x: object.box.x / scale, y: object.box.y / scale, width: object.box.width / scale, height: object.box.height / scale };
  const colour = dominantColour(rgb, rgbBox);
  const sizeW = sizeWord(object.box, size.width, size.height);
  const article = /^[aeiou]/.test(sizeW) ? 'An' : 'A';
  const text = words ? textInside(object.box, words) : undefined;
  let caption = `${article} ${sizeW} ${colour} ${object.label} ${positionPhrase(object.box, size.width, size.height)} (score ${object.score.toFixed(2)})`;
  if (text) caption += `; text reads ${quote(text)}`;
  return { caption: `${caption}.`, dominant_color: colour, ...(text ? { text } : {}) };
}
