/**
 * CAPTION_IMAGES without a captioning network (none ships in any npm or Debian package): a sentence composed from what
 * the object detector, OCR, face detector and pixel statistics measured, returned with that evidence. It names only
 * what was measured: COCO labels, counts, text read, face count, brightness and colour names, nothing about scenes.
 */
import { pluralLabel } from './coco-labels.js';
import type { ImageStatistics } from './colors.js';
import { quote } from './object-captioner.js';

export interface CaptionInputs {
  /** Detected objects (null when the detector did not run). */
  objects: Array<{ label: string; score: number }> | null;
  /** Text OCR kept (null when OCR did not run). */
  text: string | null;
  /** Number of faces found (null when face detection did not run). */
  faces: number | null;
  stats: ImageStatistics;
  /** Lowest detector score an object needed to count. */
  minScore: number;
}

const NUMBERS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

function counted(label: string, n: number): string {
  if (n === 1) return `${/^[aeiou]/.test(label) ? 'an' : 'a'} ${label}`;
  return `${NUMBERS[n] ?? String(n)} ${pluralLabel(label, n)}`;
}

function list(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "dark", "bright" or nothing, and the colours covering at least a fifth of the image. */
function lookPhrase(stats: ImageStatistics): string {
  const colours = stats.colours.filter((c) => c.share >= 0.2).slice(0, 2).map((c) => c.name);
  const light = stats.brightness < 0.25 ? 'dark' : stats.brightness > 0.75 ? 'bright' : '';
  if (stats.contrast < 0.02 && colours.length > 0) return `a plain ${colours[0]} image`;
  const colourPart = colours.length > 0 ? `mostly ${list(colours)}` : 'many-coloured';
  return `${light ? `a ${light}, ` : 'a '}${colourPart} image`;
}

export function composeCaption(inputs: CaptionInputs): { caption: string; evidence: Record<string, unknown> } {
  const counts = new Map<string, { n: number; best: number }>();
  for (const o of inputs.objects ?? []) {
    const c = counts.get(o.label) ?? { n: 0, best: 0 };
    counts.set(o.label, { n: c.n + 1, best: Math.max(c.best, o.score) });
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1].n - a[1].n || b[1].best - a[1].best);
  const shown = ranked.slice(0, 4).map(([label, c]) => counted(label, c.n));
  if (ranked.length > 4) shown.push(`${ranked.length - 4} other kind${ranked.length - 4 > 1 ? 's' : ''} of object`);
  const faces = inputs.faces ?? 0;
  const facePart = faces > 0 ? `${faces === 1 ? 'one face' : `${NUMBERS[faces] ?? faces} faces`} visible` : '';
  const look = lookPhrase(inputs.stats);

  let caption: string;
  if (shown.length > 0) {
    caption = `${capitalise(list(shown))}${facePart ? `, ${facePart}` : ''}, in ${look}`;
  } else {
    // Name only the measurements that ran and came back empty.
    const empty = [
      inputs.objects !== null ? 'objects' : null,
      inputs.faces !== null && faces === 0 ? 'faces' : null,
      inputs.text !== null && !inputs.text ? 'text' : null,
    ].filter((x): x is string => x !== null);
    const none = empty.length > 1 ? `${empty.slice(0, -1).join(', ')} or ${empty[empty.length - 1]}` : (empty[0] ?? '');
    const head = [facePart ? capitalise(facePart) : '', none ? `${facePart ? 'no' : 'No'} ${none} detected` : ''].filter(Boolean).join('; ');
    caption = head ? `${head}, in ${look}` : capitalise(look);
  }
  if (inputs.text) caption += `; text reads ${quote(inputs.text)}`;
  caption += '.';

  const evidence: Record<string, unknown> = {
    composed_by: 'grounded-captioner (template over measurements, not a neural captioner)',
    objects: inputs.objects === null ? null : Object.fromEntries(ranked.map(([label, c]) => [label, { count: c.n, best_score: c.best }])),
    object_min_score: inputs.minScore,
    faces: inputs.faces,
    ocr_text: inputs.text,
    brightness: inputs.stats.brightness,
    contrast: inputs.stats.contrast,
    colourfulness: inputs.stats.colourfulness,
    colours: inputs.stats.colours,
  };
  return { caption, evidence };
}
