/**
 * An order of n rows (n × dims) in which every run of `leaf` consecutive items is a k-d tree leaf: the items are split
 * at the median of one coordinate, cycling through the coordinates (principal axes come largest variance first), until
 * a part holds at most `leaf`. Leaves that are small boxes let a farthest-first pass skip whole leaves by their bounds.
 * O(n log n) by selection; deterministic.
 */
export function kdOrder(rows: Float32Array, dims: number, leaf = 64): Int32Array {
  const n = rows.length / dims;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const stack: Array<[number, number, number]> = [[0, n, 0]];
  while (stack.length > 0) {
    const [from, to, depth] = stack.pop()!;
    if (to - from <= leaf) continue;
    // Split so the left part holds whole leaves: the boxes then line up with the leaf runs.
    const half = from + Math.ceil((to - from) / 2 / leaf) * leaf;
    const mid = Math.min(to - 1, half);
    select(order, from, to - 1, mid, rows, dims, depth % dims);
    stack.push([from, mid, depth + 1], [mid, to, depth + 1]);
  }
  return order;
}

/** Reorders order[lo..hi] so that order[k] holds the item whose coordinate `dim` would be k-th, smaller ones before it. */
function select(order: Int32Array, lo: number, hi: number, k: number, rows: Float32Array, dims: number, dim: number): void {
  const key = (r: number) => rows[order[r]! * dims + dim]!;
  while (lo < hi) {
    const pivot = key((lo + hi) >>> 1);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (key(i) < pivot) i++;
      while (key(j) > pivot) j--;
      if (i <= j) {
        const t = order[i]!;
        order[i] = order[j]!;
        order[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}
