import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';

/** A CSV of `rows` rows keyed by the seeded file names (seed-media), five typed fields, written to disk as a stream. Returns its size. */
export async function writeMetadataCsv(file: string, rows: number): Promise<number> {
  const out = createWriteStream(file);
  const weathers = ['sunny', 'rain', 'fog', 'snow', 'windy'];
  let chunk = 'file_name,weather,score,outdoor,taken,parts\n';
  for (let g = 1; g <= rows; g++) {
    const day = String(1 + (g % 28)).padStart(2, '0');
    chunk += `synthetic-${g}.jpg,${weathers[g % 5]},${(g % 1000) / 10},${g % 2 === 0},2024-03-${day}T12:00:00Z,"[""p${g % 7}"",""q${g % 3}""]"\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return (await stat(file)).size;
}
