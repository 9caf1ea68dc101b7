import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { prng } from './media-gen.js';

export const PHOTOS = ['dog.jpg', 'kite.jpg', 'person.jpg', 'horses.jpg', 'astronaut.png', 'chelsea.png', 'coffee.png'];

/** `n` JPEGs of real photos: a random 75–100% crop of a fixture, resized to a 900–1100 px long side, maybe mirrored, re-lit, quality 80–92. */
export async function photoVariants(n: number): Promise<Buffer[]> {
  const rnd = prng(8);
  const sources = await Promise.all(PHOTOS.map((p) => readFile(path.join('test', 'fixtures', 'photos', p))));
  const metas = await Promise.all(sources.map((s) => sharp(s).metadata()));
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % sources.length;
    const { width: w = 0, height: h = 0 } = metas[k]!;
    const f = 0.75 + rnd() * 0.25;
    const cw = Math.round(w * f);
    const ch = Math.round(h * f);
    const left = Math.floor(rnd() * (w - cw + 1));
    const top = Math.floor(rnd() * (h - ch + 1));
    const side = 900 + Math.floor(rnd() * 200);
    let img = sharp(sources[k]!).removeAlpha().extract({ left, top, width: cw, height: ch }).resize(cw >= ch ? { width: side } : { height: side });
    if (rnd() < 0.5) img = img.flop();
    img = img.modulate({ brightness: 0.85 + rnd() * 0.3 });
    out.push(await img.jpeg({ quality: 80 + Math.floor(rnd() * 13) }).toBuffer());
  }
  return out;
}

