import { describe, expect, it } from 'vitest';
import { cloneName, findNewClone } from '../../web/src/snapshots/clone-lookup.js';

describe('clone lookup', () => {
  const ds = (id: string, display_name: string, source_dataset_id: string | null) => ({ id, display_name, source_dataset_id });

  it('finds the clone listed after the request that was not listed before', () => {
    const before = [ds('old-clone', 'pets (cloned)', 'src'), ds('src', 'pets', null)];
    const after = [ds('new-clone', 'pets (cloned)', 'src'), ds('other', 'pets (cloned)', 'elsewhere'), ...before];
    expect(cloneName('pets')).toBe('pets (cloned)');
    expect(findNewClone(before, after, { id: 'src', name: 'pets' })?.id).toBe('new-clone');
    expect(findNewClone(before, before, { id: 'src', name: 'pets' })).toBeUndefined();
  });
});
