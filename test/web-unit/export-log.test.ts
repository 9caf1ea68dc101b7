import { describe, expect, it } from 'vitest';
import { KEPT_EXPORTS, addToExportLog, exportLogKey, isFinished, readExportLog, suggestedFileName } from '../../web/src/exports/export-log.js';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
}

const record = (id: string) => ({ id, fileName: `file-${id}`, format: 'json' as const, includeImages: false, startedAt: '2026-01-01T00:00:00.000Z' });

describe('export log', () => {
  it('remembers exports per dataset, newest first, once each', () => {
    const storage = memoryStorage();
    addToExportLog(storage, 'd1', record('a'));
    addToExportLog(storage, 'd1', record('b'));
    expect(addToExportLog(storage, 'd1', record('a')).map((r) => r.id)).toEqual(['a', 'b']);
    expect(readExportLog(storage, 'd1')).toEqual([record('a'), record('b')]);
    expect(readExportLog(storage, 'd2')).toEqual([]);
  });

  it('keeps the newest exports only', () => {
    const storage = memoryStorage();
    for (let i = 0; i < KEPT_EXPORTS + 5; i++) addToExportLog(storage, 'd', record(String(i)));
    const list = readExportLog(storage, 'd');
    expect(list).toHaveLength(KEPT_EXPORTS);
    expect(list[0]!.id).toBe(String(KEPT_EXPORTS + 4));
  });

  it('reads broken or foreign storage as no exports, and skips malformed records', () => {
    const storage = memoryStorage();
    storage.setItem(exportLogKey('d'), '{not json');
    expect(readExportLog(storage, 'd')).toEqual([]);
    storage.setItem(exportLogKey('d'), JSON.stringify({ id: 'x' }));
    expect(readExportLog(storage, 'd')).toEqual([]);
    storage.setItem(exportLogKey('d'), JSON.stringify([record('ok'), { ...record('bad'), format: 'coco' }, null]));
    expect(readExportLog(storage, 'd')).toEqual([record('ok')]);
  });

  it('suggests a file name from the dataset name and knows the final statuses', () => {
    expect(suggestedFileName('Street photos 2024')).toBe('Street-photos-2024-export');
    expect(suggestedFileName('  ')).toBe('dataset-export');
    expect(['PENDING', 'COMPLETED', 'FAILED', 'REJECTED'].filter(isFinished)).toEqual(['COMPLETED', 'FAILED', 'REJECTED']);
  });
});
