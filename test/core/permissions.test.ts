import { describe, expect, it } from 'vitest';
import { type DatasetAction, type DatasetRole, authorize } from '../../src/core/permissions.js';

const table: Array<[DatasetRole | null, DatasetAction, ReturnType<typeof authorize>]> = [
  [null, 'read', 'hidden'],
  [null, 'write', 'hidden'],
  [null, 'share', 'hidden'],
  [null, 'delete', 'hidden'],
  ['viewer', 'read', 'allowed'],
  ['viewer', 'write', 'forbidden'],
  ['viewer', 'share', 'forbidden'],
  ['viewer', 'delete', 'forbidden'],
  ['editor', 'read', 'allowed'],
  ['editor', 'write', 'allowed'],
  ['editor', 'share', 'forbidden'],
  ['editor', 'delete', 'forbidden'],
  ['owner', 'read', 'allowed'],
  ['owner', 'write', 'allowed'],
  ['owner', 'share', 'allowed'],
  ['owner', 'delete', 'allowed'],
];

describe('authorize(role, action)', () => {
  it.each(table)('%s may %s: %s', (role, action, expected) => {
    expect(authorize(role, action)).toBe(expected);
  });
});
