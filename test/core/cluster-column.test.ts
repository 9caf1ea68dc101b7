import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { clusterColumn } from '../../src/modules/explore/cluster-column.js';

describe('clusterColumn', () => {
  it('names the column of a level 0 … 4', () => {
    for (const level of [0, 1, 2, 3, 4]) expect(clusterColumn(level)).toBeDefined();
  });

  it('refuses any other level with the 422 Explore gives, before it can become an identifier', () => {
    for (const level of [Number.POSITIVE_INFINITY, Number.NaN, -1, 5, 1.5, 1e308]) {
      expect(() => clusterColumn(level), String(level)).toThrow(new AppError(422, 'threshold must be an integer from 0 to 4'));
    }
  });
});
