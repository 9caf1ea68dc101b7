import { describe, expect, it } from 'vitest';
import { changedItems, emptyLists, insertNeighbour, mergeLists, rescoreLists, reverseNeighbours, truncateGraph } from '../../src/core/knn-lists.js';

const row = (g: { k: number; neighbours: Int32Array }, i: number) => Array.from(g.neighbours.subarray(i * g.k, (i + 1) * g.k));

describe('insertNeighbour', () => {
  it('keeps each list sorted best first, without the item itself, duplicates or entries worse than a full list', () => {
    const g = emptyLists(4, 3);
    expect(insertNeighbour(g, 0, 1, 0.5)).toBe(true);
    expect(insertNeighbour(g, 0, 2, 0.9)).toBe(true);
    expect(insertNeighbour(g, 0, 0, 1)).toBe(false);
    expect(insertNeighbour(g, 0, 2, 0.95)).toBe(false);
    expect(insertNeighbour(g, 0, 3, 0.7)).toBe(true);
    expect(row(g, 0)).toEqual([2, 3, 1]);
    expect(insertNeighbour(g, 0, 5, 0.5)).toBe(false);
    expect(insertNeighbour(g, 0, 5, 0.6)).toBe(true);
    expect(row(g, 0)).toEqual([2, 3, 5]);
    expect(Array.from(g.similarities.subarray(0, 3))).toEqual([0.9, 0.7, 0.6].map(Math.fround));
  });

  it('keeps the earlier of two equal entries', () => {
    const g = emptyLists(3, 1);
    insertNeighbour(g, 0, 1, 0.5);
    expect(insertNeighbour(g, 0, 2, 0.5)).toBe(false);
    expect(row(g, 0)).toEqual([1]);
  });
});

describe('mergeLists, changedItems, reverseNeighbours', () => {
  it('merges two threads\' lists into the best of both and tells which neighbourhoods changed', () => {
    const a = emptyLists(5, 2);
    const b = emptyLists(5, 2);
    insertNeighbour(a, 0, 1, 0.9);
    insertNeighbour(a, 0, 2, 0.1);
    insertNeighbour(b, 0, 3, 0.5);
    insertNeighbour(b, 4, 0, 0.3);
    const before = emptyLists(5, 2);
    before.neighbours.set(a.neighbours);
    before.similarities.set(a.similarities);
    expect(mergeLists(a, b)).toBe(2);
    expect(row(a, 0)).toEqual([1, 3]);
    expect(row(a, 4)).toEqual([0, -1]);
    // 0's list lost 2 and gained 3; 4's gained 0.
    expect(Array.from(changedItems(before, a))).toEqual([1, 0, 1, 1, 1]);
    const reverse = reverseNeighbours(a, 1);
    const listing = (i: number) => Array.from(reverse.items.subarray(reverse.start[i]!, reverse.start[i + 1]!));
    expect([listing(0), listing(1), listing(3), listing(4)]).toEqual([[4], [0], [0], []]);
  });
});

describe('rescoreLists and truncateGraph', () => {
  it('recomputes similarities, re-sorts, then cuts each list to k', () => {
    const g = emptyLists(3, 2);
    insertNeighbour(g, 0, 1, 0.9);
    insertNeighbour(g, 0, 2, 0.8);
    rescoreLists(g, (i, o) => (o === 2 ? 0.95 : 0.1));
    expect(row(g, 0)).toEqual([2, 1]);
    const cut = truncateGraph(g, 1);
    expect(row(cut, 0)).toEqual([2]);
    expect(cut.similarities[0]).toBeCloseTo(0.95, 6);
    expect(truncateGraph(g, 2)).toBe(g);
  });
});
