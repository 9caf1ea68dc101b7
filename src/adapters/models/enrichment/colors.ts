import type { RgbImage } from '../embedder.js';
import type { Box } from './types.js';

/** A plain colour name for one pixel, from its hue, saturation and lightness. */
export function colourName(r: number, g: number, b: number): string {
  const max = Math.max(r, g, b) / 255;
  const min = Math.min(r, g, b) / 255;
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  if (l < 0.12) return 'black';
  if (s < 0.18 || d < 0.08) return l > 0.82 ? 'white' : l < 0.22 ? 'black' : 'gray';
  if (l > 0.94) return 'white';
  let h: number;
  const rr = r / 255;
  const gg = g / 255;
  const bb = b / 255;
  if (max === rr) h = 60 * (((gg - bb) / d) % 6);
  else if (max === gg) h = 60 * ((bb - rr) / d + 2);
  else h = 60 * ((rr - gg) / d + 4);
  if (h < 0) h += 360;
  if (h < 15 || h >= 340) return l > 0.7 ? 'pink' : l < 0.3 ? 'brown' : 'red';
  if (h < 45) return l < 0.45 ? 'brown' : 'orange';
  if (h < 68) return l < 0.3 ? 'brown' : 'yellow';
  if (h < 165) return 'green';
  if (h < 195) return 'cyan';
  if (h < 255) return 'blue';
  if (h < 290) return 'purple';
  return 'pink';
}

export interface ColourShare {
  name: string;
  share: number;
}

/** Colour names by share of the pixels in `box` (default: the whole image), sampling about 8,000 pixels. */
export function colourShares(rgb: RgbImage, box?: Box): ColourShare[] {
  const x0 = Math.max(0, Math.floor(box?.x ?? 0));
  const y0 = Math.max(0, Math.floor(box?.y ?? 0));
  const x1 = Math.min(rgb.width, Math.ceil(box ? box.x + box.width : rgb.width));
  const y1 = Math.min(rgb.height, Math.ceil(box ? box.y + box.height : rgb.height));
  const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 8000)));
  const counts = new Map<string, number>();
  let total = 0;
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const i = (y * rgb.width + x) * 3;
      const name = colourName(rgb.data[i]!, rgb.data[i + 1]!, rgb.data[i + 2]!);
      counts.set(name, (counts.get(name) ?? 0) + 1);
      total++;
    }
  }
  return [...counts.entries()]
    .map(([name, n]) => ({ name, share: Math.round((n / Math.max(1, total)) * 1000) / 1000 }))
    .sort((a, b) => b.share - a.share);
}

/** The most common colour name in the middle of `box` (its central 60%, where the object is more than its background). */
export function dominantColour(rgb: RgbImage, box: Box): string {
  const inner = { x: box.x + box.width * 0.2, y: box.y + box.height * 0.2, width: box.width * 0.6, height: box.height * 0.6 };
  return colourShares(rgb, inner.width >= 2 && inner.height >= 2 ? inner : box)[0]?.name ?? 'gray';
}

export interface ImageStatistics {
  /** Mean luma, 0 (black) to 1 (white). */
  brightness: number;
  /** Standard deviation of luma, 0 to 0.5. */
  contrast: number;
  /** Mean saturation-like spread, max(r,g,b) − min(r,g,b), 0 to 1. */
  colourfulness: number;
  colours: ColourShare[];
}

export function imageStatistics(rgb: RgbImage): ImageStatistics {
  const step = Math.max(1, Math.floor(Math.sqrt((rgb.width * rgb.height) / 20000)));
  let n = 0;
  let sum = 0;
  let sumSq = 0;
  let spread = 0;
  for (let y = 0; y < rgb.height; y += step) {
    for (let x = 0; x < rgb.width; x += step) {
      const i = (y * rgb.width + x) * 3;
      const r = rgb.data[i]!;
      const g = rgb.data[i + 1]!;
      const b = rgb.data[i + 2]!;
      const luma = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      sum += luma;
      sumSq += luma * luma;
      spread += (Math.max(r, g, b) - Math.min(r, g, b)) / 255;
      n++;
    }
  }
  const mean = sum / n;
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    brightness: round(mean),
    contrast: round(Math.sqrt(Math.max(0, sumSq / n - mean * mean))),
    colourfulness: round(spread / n),
    colours: colourShares(rgb).slice(0, 4),
  };
}
