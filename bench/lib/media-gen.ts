import { copyFile, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { ffmpegPath, runTool } from '../../src/adapters/media/ffmpeg.js';

/** A generated file on disk: what the upload streams and the baseline decodes. */
export interface GeneratedFile {
  path: string;
  name: string;
  bytes: number;
}

const W = 1024;
const H = 768;
const RAW = { raw: { width: W, height: H, channels: 3 as const } };

/** Deterministic PRNG (mulberry32), so every run generates the same files. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A gradient sky plus ~30 translucent shapes, rendered at half size so the upscale softens the edges like optics do. */
function sceneSvg(rnd: () => number): Buffer {
  const w = W / 2;
  const h = H / 2;
  const colour = () => `rgb(${Math.floor(rnd() * 256)},${Math.floor(rnd() * 256)},${Math.floor(rnd() * 256)})`;
  const shapes: string[] = [];
  for (let k = 0; k < 24 + Math.floor(rnd() * 16); k++) {
    const [x, y, r] = [rnd() * w, rnd() * h, 8 + rnd() * 110];
    const paint = `fill="${colour()}" fill-opacity="${(0.3 + rnd() * 0.65).toFixed(2)}"`;
    const t = rnd();
    if (t < 0.4) shapes.push(`<circle cx="${x}" cy="${y}" r="${r}" ${paint}/>`);
    else if (t < 0.75) shapes.push(`<rect x="${x}" y="${y}" width="${r * 1.6}" height="${r}" ${paint} transform="rotate(${Math.floor(rnd() * 90)} ${x} ${y})"/>`);
    else shapes.push(`<ellipse cx="${x}" cy="${y}" rx="${r}" ry="${r * (0.2 + rnd() * 0.6)}" ${paint}/>`);
  }
  const gradient = `<linearGradient id="g" x1="0" y1="0" x2="${rnd().toFixed(2)}" y2="1"><stop offset="0" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/></linearGradient>`;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs>${gradient}</defs>` +
      `<rect width="100%" height="100%" fill="url(#g)" fill-opacity="0.8"/>${shapes.join('')}</svg>`,
  );
}

/**
 * `count` distinct 1024×768 JPEGs (quality 85) named `${prefix}-0001.jpg`…: coarse noise texture (upscaled, so it
 * reads as surface detail), a gradient-and-shapes scene over it, and fine sensor-like grain soft-lit on top.
 * Large gaussian noise is slow in libvips, so textures and grain layers are made once and shared: each image takes
 * a random window of a texture and a flipped grain layer; its own scene makes it distinct.
 * Files are written `parallel` at a time; about 100–250 KB each.
 */
export async function generateJpegs(dir: string, prefix: string, count: number, seed: number, parallel = 2): Promise<GeneratedFile[]> {
  await mkdir(dir, { recursive: true });
  const noise = (width: number, height: number, sigma: number) =>
    sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma } } });
  const grain = await Promise.all([11, 14, 17, 20].map((sigma) => noise(W, H, sigma).raw().toBuffer()));
  const textures = await Promise.all([35, 50, 65].map((sigma) => noise(W / 4, H / 4, sigma).resize(2 * W, 2 * H, { kernel: 'cubic' }).raw().toBuffer()));
  const out: GeneratedFile[] = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const rnd = prng(seed * 100_003 + i);
      const texture = await sharp(textures[i % textures.length]!, { raw: { width: 2 * W, height: 2 * H, channels: 3 } })
        .extract({ left: Math.floor(rnd() * W), top: Math.floor(rnd() * H), width: W, height: H })
        .raw()
        .toBuffer();
      const scene = await sharp(sceneSvg(rnd)).resize(W, H).png({ compressionLevel: 0 }).toBuffer();
      const layer = await sharp(grain[i % grain.length]!, RAW).flip(rnd() < 0.5).flop(rnd() < 0.5).raw().toBuffer();
      const name = `${prefix}-${String(i + 1).padStart(4, '0')}.jpg`;
      const file = path.join(dir, name);
      const info = await sharp(texture, RAW)
        .composite([{ input: scene }, { input: layer, ...RAW, blend: 'soft-light' }])
        .jpeg({ quality: 85 })
        .toFile(file);
      out[i] = { path: file, name, bytes: info.size };
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return out;
}

const VIDEO_SOURCES = ['testsrc2=size=640x360:rate=30', 'mandelbrot=size=640x360:rate=30', 'life=size=640x360:rate=30:mold=10:ratio=0.2:seed=SEED'];

/** `count` 5 s 640×360 H.264 MP4s from ffmpeg's synthetic sources, each with its own seeded grain (distinct bytes). */
export async function generateVideos(dir: string, count: number, seed: number): Promise<GeneratedFile[]> {
  await mkdir(dir, { recursive: true });
  const out: GeneratedFile[] = [];
  for (let i = 0; i < count; i++) {
    const name = `video-${seed}-${i + 1}.mp4`;
    const file = path.join(dir, name);
    const source = VIDEO_SOURCES[i % VIDEO_SOURCES.length]!.replace('SEED', String(seed + i));
    const filter = `${source},noise=alls=10:allf=t:all_seed=${seed * 1000 + i},format=yuv420p`;
    const args = ['-hide_banner', '-nostdin', '-y', '-f', 'lavfi', '-i', filter, '-t', '5', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '26', '-movflags', '+faststart', file];
    const result = await runTool(ffmpegPath(), args);
    if (result.exitCode !== 0) throw new Error(`ffmpeg could not generate ${name}: exit ${result.exitCode}: ${result.stderrTail.join(' | ')}`);
    out.push({ path: file, name, bytes: (await stat(file)).size });
  }
  return out;
}

/**
 * `count` small distinct JPEGs (320x240, quality 80, ~10-20 KB): a seeded colour under seeded noise, quick to make and
 * to decode, for benches that time what happens after the decode (add_media's attach and partial index).
 */
export async function generateSmallJpegs(dir: string, prefix: string, count: number, seed: number): Promise<GeneratedFile[]> {
  await mkdir(dir, { recursive: true });
  const out: GeneratedFile[] = [];
  for (let i = 0; i < count; i++) {
    const rnd = prng(seed * 100_003 + i);
    const background = { r: Math.floor(rnd() * 256), g: Math.floor(rnd() * 256), b: Math.floor(rnd() * 256) };
    const name = `${prefix}-${String(i + 1).padStart(4, '0')}.jpg`;
    const file = path.join(dir, name);
    const info = await sharp({ create: { width: 320, height: 240, channels: 3, background, noise: { type: 'gaussian', mean: 128, sigma: 10 + rnd() * 40 } } })
      .jpeg({ quality: 80 })
      .toFile(file);
    out.push({ path: file, name, bytes: info.size });
  }
  return out;
}

/** The files converted to PNG or WebP (q85) in `dir`, same base names. */
export async function convertImages(files: GeneratedFile[], dir: string, format: 'png' | 'webp'): Promise<GeneratedFile[]> {
  await mkdir(dir, { recursive: true });
  const out: GeneratedFile[] = [];
  for (const f of files) {
    const name = `${path.parse(f.name).name}.${format}`;
    const file = path.join(dir, name);
    const image = sharp(f.path);
    const info = await (format === 'png' ? image.png() : image.webp({ quality: 85 })).toFile(file);
    out.push({ path: file, name, bytes: info.size });
  }
  return out;
}

/** `count` copies of one file in `dir`, each under its own name (the same bytes: one blob, `count` upload files). */
export async function copiesOf(source: string, dir: string, count: number): Promise<GeneratedFile[]> {
  await mkdir(dir, { recursive: true });
  const ext = path.extname(source);
  const out: GeneratedFile[] = [];
  for (let i = 0; i < count; i++) {
    const name = `copy-${String(i + 1).padStart(4, '0')}${ext}`;
    const file = path.join(dir, name);
    await copyFile(source, file);
    out.push({ path: file, name, bytes: (await stat(file)).size });
  }
  return out;
}
