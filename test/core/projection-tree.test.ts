import { describe, expect, it } from 'vitest';
import { treeDepth, treeLeaves } from '../../src/core/projection-tree.js';

describe('treeLeaves', () => {
  it('splits at the median level after level into leaves of at most leafSize that cover every item once', () => {
    const n = 1000;
    const depth = treeDepth(n, 64);
    expect(depth).toBe(4);
    const projections = new Float32Array(n * depth);
    for (let i = 0; i < projections.length; i++) projections[i] = Math.sin(i * 12.9898) * 43758.5453 - Math.floor(Math.sin(i * 12.9898) * 43758.5453);
    const order = Int32Array.from({ length: n }, (_, i) => i);
    const leaves = treeLeaves(order, projections, depth, 64);
    expect(leaves.length / 2).toBe(16);
    for (let p = 0; p < leaves.length; p += 2) expect(leaves[p + 1]! - leaves[p]!).toBeLessThanOrEqual(64);
    expect(new Set(order).size).toBe(n);
    // The first split: every item of the lower half projects below every item of the upper half on direction 0 (row 0).
    const lower = Array.from(order.subarray(0, 500), (i) => projections[i]!);
    const upper = Array.from(order.subarray(500), (i) => projections[i]!);
    expect(Math.max(...lower)).toBeLessThanOrEqual(Math.min(...upper));
  });

  it('keeps a set no larger than a leaf whole', () => {
    const order = Int32Array.from([0, 1, 2]);
    expect(treeDepth(3, 64)).toBe(0);
    expect(Array.from(treeLeaves(order, new Float32Array(0), 0, 64))).toEqual([0, 3]);
  });
});
