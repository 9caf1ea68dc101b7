import { describe, expect, it } from 'vitest';
import { type ForestContext, Scratch, forestParams, joinNeedy, quantizeRows } from '../../src/adapters/vectors/forest-graph.js';
import { emptyLists } from '../../src/core/knn-lists.js';

/** Four unit vectors in 4-d: 0 and 1 nearly the same, 2 and 3 nearly the same, the pairs orthogonal. */
function context(): ForestContext {
  const v = Float32Array.from([1, 0.05, 0, 0, 1, -0.05, 0, 0, 0, 0, 1, 0.05, 0, 0, 1, -0.05]);
  const q8 = new Int8Array(16);
  quantizeRows(v, 4, q8);
  return { q8, d: 4, n: 4, params: forestParams(4) };
}

describe('quantizeRows', () => {
  it('scales each row so that its largest component is 127', () => {
    expect(Array.from(context().q8.subarray(0, 4))).toEqual([127, 6, 0, 0]);
  });
});

describe('joinNeedy (a rescue tree\'s leaf)', () => {
  it('searches only for the needy items of a leaf and links each match both ways', () => {
    const ctx = context();
    const lists = emptyLists(4, 2);
    const needy = Uint8Array.from([1, 0, 0, 0]);
    const changed = joinNeedy(ctx, [0, 1, 2, 3], 4, needy, lists, new Scratch(4, 4), new Scratch(4, 4));
    expect(changed).toBeGreaterThan(0);
    expect(lists.neighbours[0]).toBe(1);
    expect(lists.neighbours[1 * 2]).toBe(0);
    // 2 and 3 were not needy: they were not compared with each other (at most one of them met 0's search).
    expect(Array.from(lists.neighbours.subarray(2 * 2, 3 * 2))).not.toContain(3);
    expect(Array.from(lists.neighbours.subarray(3 * 2, 4 * 2))).not.toContain(2);
  });

  it('does nothing in a leaf without needy items', () => {
    const lists = emptyLists(4, 2);
    expect(joinNeedy(context(), [0, 1, 2, 3], 4, new Uint8Array(4), lists, new Scratch(4, 4), new Scratch(4, 4))).toBe(0);
    expect(Array.from(lists.neighbours)).toEqual(Array(8).fill(-1));
  });
});
