import sharp from 'sharp';

/** The edits a near-duplicate finder must see through: each turns one photo into a new file's bytes. */
export const PHOTO_EDITS: Record<string, (input: Buffer) => Promise<Buffer>> = {
  'half-q30': async (input) => {
    const { width = 2 } = await sharp(input).metadata();
    return sharp(input).resize(Math.round(width / 2)).jpeg({ quality: 30 }).toBuffer();
  },
  'crop84': async (input) => {
    const { width = 100, height = 100 } = await sharp(input).metadata();
    const w = Math.round(width * 0.84);
    const h = Math.round(height * 0.84);
    return sharp(input).extract({ left: Math.round((width - w) / 2), top: Math.round((height - h) / 2), width: w, height: h }).jpeg({ quality: 90 }).toBuffer();
  },
  'mirror-bright': (input) => sharp(input).flop().modulate({ brightness: 1.25 }).jpeg({ quality: 90 }).toBuffer(),
  'blur-desat': (input) => sharp(input).blur(2).modulate({ saturation: 0.4 }).jpeg({ quality: 90 }).toBuffer(),
};
