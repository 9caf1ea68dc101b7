/** Detected objects' boxes as positions over a preview shown at any size. */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface BoxPosition {
  left: string;
  top: string;
  width: string;
  height: string;
}

const clamp = (value: number) => Math.min(100, Math.max(0, value));
const percent = (value: number) => `${Number(value.toFixed(3))}%`;

/**
 * A box in the media's own pixels as percentages of the media's size: drawn over the preview (any downscale of the
 * same picture) it follows the displayed size without measuring it. Parts outside the picture are cut off.
 */
export function boxPosition(box: Box, media: { width: number; height: number }): BoxPosition {
  const left = clamp((box.x / media.width) * 100);
  const top = clamp((box.y / media.height) * 100);
  const right = clamp(((box.x + box.width) / media.width) * 100);
  const bottom = clamp(((box.y + box.height) / media.height) * 100);
  return { left: percent(left), top: percent(top), width: percent(right - left), height: percent(bottom - top) };
}
