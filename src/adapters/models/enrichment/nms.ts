import type { Box } from './types.js';

export interface ScoredBox {
  box: Box;
  score: number;
  classId: number;
}

export function iou(a: Box, b: Box): number {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width);
  const y2 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * Greedy non-max suppression, highest score first: a box is dropped when a kept box of the same class overlaps it by
 * more than `iouThreshold`, or a kept box of any class by more than `crossClassIou`. Mostly per class, because a
 * rider and the bicycle under them overlap a lot and are both real.
 */
export function nonMaxSuppression<T extends ScoredBox>(candidates: readonly T[], iouThreshold: number, crossClassIou: number, maxKept: number): T[] {
  const sorted = [...candidates].sort((a, b) => b.score - a.score);
  const kept: T[] = [];
  for (const c of sorted) {
    if (kept.length >= maxKept) break;
    if (kept.some((k) => iou(k.box, c.box) > (k.classId === c.classId ? iouThreshold : crossClassIou))) continue;
    kept.push(c);
  }
  return kept;
}
