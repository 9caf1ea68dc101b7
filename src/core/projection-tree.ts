/**
 * A random projection tree's leaves: items split at the median of their projection on one direction per
 * level, level after level, until a part holds at most `leafSize` items. Median splits keep the leaves
 * balanced whatever the data's shape, so the exact search inside each leaf costs n × leafSize at most.
 */

/** Levels needed for leaves of at most `leafSize` items out of n. */
export function treeDepth(n: number, leafSize: number): number {
  return n <= leafSize ? 0 : Math.ceil(Math.log2(n / leafSize));
}

/**
 * Orders `order` (item ids) so that each leaf is a contiguous run, and returns the runs' bounds
 * ([start0, end0, start1, end1, …]). `projections` holds one row per level: item i's value at level l is
 * projections[l × n + i].
 */
export function treeLeaves(order: Int32Array, projections: Float32Array, depth: number, leafSize: number): Int32Array {
  const n = order.length;
  const keys = new Float32Array(n);
  let parts = [0, n];
  for (let level = 0; level < depth; level++) {
    // The level's values in the current order, so the selections below read memory in sequence.
    const row = projections.subarray(level * n, (level + 1) * n);
    for (let r = 0; r < n; r++) keys[r] = row[order[r]!]!;
    const next: number[] = [];
    for (let p = 0; p < parts.length; p += 2) {
      const lo = parts[p]!;
      const hi = parts[p + 1]!;
      if (hi - lo <= leafSize) {
        next.push(lo, hi);
        continue;
      }
      const mid = (lo + hi) >> 1;
      selectNth(order, keys, lo, hi - 1, mid);
      next.push(lo, mid, mid, hi);
    }
    parts = next;
  }
  return Int32Array.from(parts);
}

/** Hoare's quickselect on keys[lo..hi] (order moved alongside): afterwards keys[nth] has rank nth, smaller ones before it. */
function selectNth(order: Int32Array, keys: Float32Array, lo: number, hi: number, nth: number): void {
  while (hi > lo) {
    const pivot = keys[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (keys[i]! < pivot) i++;
      while (keys[j]! > pivot) j--;
      if (i <= j) {
        const k = keys[i]!;
        keys[i] = keys[j]!;
        keys[j] = k;
        const x = order[i]!;
        order[i] = order[j]!;
        order[j] = x;
        i++;
        j--;
      }
    }
    if (nth <= j) hi = j;
    else if (nth >= i) lo = i;
    else return;
  }
}
