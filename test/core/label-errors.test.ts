import { describe, expect, it } from 'vitest';
import { centroidDistances, classOutliers, classSums, mislabelScores, reaches } from '../../src/core/label-errors.js';

describe('label error scores', () => {
  it('mislabel_score is the share of neighbours with another label; the suggestion their majority, ties to the nearest', () => {
    // Items 0..4, classes [a, a, b, b, b]; k = 3 slots each, -1 empty.
    const classOf = Int32Array.from([0, 0, 1, 1, 1]);
    const neighbours = Int32Array.from([2, 3, 1, /**/ 0, 2, -1, /**/ 3, 4, 0, /**/ 0, 1, -1, /**/ -1, -1, -1]);
    const { score, suggested } = mislabelScores(classOf, neighbours, 3, 2);
    expect([...score.subarray(0, 4)]).toEqual([2 / 3, 0.5, 1 / 3, 1].map(Math.fround));
    expect(score[4]).toBeNaN();
    // Item 1: one a, one b, a tie: the nearest (a) wins. Item 3: two a's.
    expect([...suggested]).toEqual([1, 0, 1, 0, -1]);
  });

  it('7 of 10 neighbours disagreeing reaches the threshold 0.7, as stored (float32)', () => {
    const classOf = Int32Array.from([0, ...Array(7).fill(1), ...Array(3).fill(0)]);
    const neighbours = Int32Array.from([...Array.from({ length: 10 }, (_, j) => j + 1), ...Array(100).fill(-1)]);
    const { score } = mislabelScores(classOf, neighbours, 10, 2);
    expect(reaches(score[0]!, 0.7)).toBe(true);
    expect(reaches(score[0]!, 0.71)).toBe(false);
  });

  it('class outliers: leave-one-out centroid distance above max(0.5, median + 3.5 · 1.4826 · MAD), classes of 5 or more', () => {
    const d = 2;
    const angle = (deg: number) => [Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)];
    // Class 0: six vectors near 0°, one at 120°; class 1: three far apart (too small to judge).
    const vectors = Float32Array.from([0, 2, -3, 4, 1, -2, 120, 60, 150, 270].flatMap(angle));
    const classOf = Int32Array.from([0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    const sums = classSums(vectors, d, classOf, 2);
    const distance = new Float32Array(10);
    centroidDistances(vectors, d, classOf, sums, 2, distance);
    // Item 6 against the centroid of the six others (~0.33°): 1 − cos(119.67°).
    expect(distance[6]).toBeCloseTo(1 - Math.cos((119.67 * Math.PI) / 180), 3);
    const { flagged, cut } = classOutliers(distance, classOf, 2);
    expect([...flagged]).toEqual([0, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
    expect(cut[0]).toBe(0.5);
    expect(cut[1]).toBeNaN();
  });
});
