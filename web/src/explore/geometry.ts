/** Where a media sits in a square thumbnail box, and where its detected objects sit on it, in percent. */
export interface PercentRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The media fitted whole and centred in a square box; unknown sizes fill it. */
export function containFrame(width: number | null, height: number | null): PercentRect {
  if (!width || !height) return { left: 0, top: 0, width: 100, height: 100 };
  if (width >= height) {
    const h = (height / width) * 100;
    return { left: 0, top: (100 - h) / 2, width: 100, height: h };
  }
  const w = (width / height) * 100;
  return { left: (100 - w) / 2, top: 0, width: w, height: 100 };
}

/** An object's box (in the media's pixels, x, y = top left) as percent of the media, clipped to it. */
export function boxPercent(box: { x: number; y: number; width: number; height: number }, width: number | null, height: number | null): PercentRect | null {
  if (!width || !height) return null;
  const left = Math.max(0, Math.min(100, (box.x / width) * 100));
  const top = Math.max(0, Math.min(100, (box.y / height) * 100));
  const right = Math.max(0, Math.min(100, ((box.x + box.width) / width) * 100));
  const bottom = Math.max(0, Math.min(100, ((box.y + box.height) / height) * 100));
  return { left, top, width: right - left, height: bottom - top };
}

export const percentStyle = (r: PercentRect) => ({ left: `${r.left}%`, top: `${r.top}%`, width: `${r.width}%`, height: `${r.height}%` });
