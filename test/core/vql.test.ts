import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { type ExploreFilters, type ExploreQuery, emptyFilters, isEmptyFilters, parseExploreFilters } from '../../src/core/vql.js';

const vql = (...elements: unknown[]) => ({ vql: JSON.stringify(elements) });
const withFilters = (patch: Partial<ExploreFilters>): ExploreFilters => ({ ...emptyFilters(), ...patch });

function rejects(query: ExploreQuery, message: string): void {
  let caught: unknown;
  try {
    parseExploreFilters(query);
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(AppError);
  expect((caught as AppError).status).toBe(422);
  expect((caught as AppError).detail).toContain(message);
}

describe('parseExploreFilters: no filters', () => {
  it.each<[string, ExploreQuery]>([
    ['no parameters', {}],
    ['an empty vql array', { vql: '[]' }],
    ['a blank vql', { vql: '  ' }],
    ['blank plain parameters', { file_name: '', issue_type: ' ', min_uniqueness: '', caption: '', labels: '', tags: ' ', media_type: '' }],
  ])('%s gives the empty filter set', (_name, query) => {
    const f = parseExploreFilters(query);
    expect(f).toEqual(emptyFilters());
    expect(isEmptyFilters(f)).toBe(true);
  });
});

describe('parseExploreFilters: valid vql', () => {
  it.each<[string, unknown, Partial<ExploreFilters>]>([
    ['text fts', { text: { op: 'fts', value: ' cat ' } }, { text: [{ op: 'fts', value: 'cat', threshold: null }] }],
    ['text semantic', { text: { op: 'semantic', value: 'a dog' } }, { text: [{ op: 'semantic', value: 'a dog', threshold: null }] }],
    ['text semantic with threshold', { text: { op: 'semantic', value: 'dog', threshold: 0.3 } }, { text: [{ op: 'semantic', value: 'dog', threshold: 0.3 }] }],
    ['text threshold 0', { text: { op: 'semantic', value: 'dog', threshold: 0 } }, { text: [{ op: 'semantic', value: 'dog', threshold: 0 }] }],
    ['text threshold 1', { text: { op: 'semantic', value: 'dog', threshold: 1 } }, { text: [{ op: 'semantic', value: 'dog', threshold: 1 }] }],
    ['text of 500 chars', { text: { op: 'fts', value: 'x'.repeat(500) } }, { text: [{ op: 'fts', value: 'x'.repeat(500), threshold: null }] }],
    ['labels one_of', { labels: { op: 'one_of', value: ['cat', ' dog ', 'cat'] } }, { labels: [['cat', 'dog']] }],
    ['tags is (array)', { tags: { op: 'is', value: ['a', 'b'] } }, { tags: [['a', 'b']] }],
    ['tags is (single string)', { tags: { op: 'is', value: 'reviewed' } }, { tags: [['reviewed']] }],
    ['issues default mode', { issues: { op: 'issue', value: 'blur' } }, { issues: [{ issue: 'blur', mode: 'in' }] }],
    ['issues mode in', { issues: { op: 'issue', value: 'dark', mode: 'in' } }, { issues: [{ issue: 'dark', mode: 'in' }] }],
    ['issues mode out', { issues: { op: 'issue', value: 'outliers', mode: 'out' } }, { issues: [{ issue: 'outliers', mode: 'out' }] }],
    ['duplicates', { duplicates: { op: 'duplicates', value: 0.95 } }, { minDuplicateSimilarity: 0.95 }],
    ['duplicates at 1', { duplicates: { op: 'duplicates', value: 1 } }, { minDuplicateSimilarity: 1 }],
    ['uniqueness', { uniqueness: { op: 'uniqueness', value: 0.4 } }, { minUniqueness: 0.4 }],
    ['uniqueness at 0', { uniqueness: { op: 'uniqueness', value: 0 } }, { minUniqueness: 0 }],
  ])('%s', (_name, element, expected) => {
    const f = parseExploreFilters(vql(element));
    expect(f).toEqual(withFilters(expected));
    expect(isEmptyFilters(f)).toBe(false);
  });

  it('accepts every issue type', () => {
    for (const issue of ['blur', 'dark', 'bright', 'outliers', 'duplicates']) {
      expect(parseExploreFilters(vql({ issues: { op: 'issue', value: issue } })).issues).toEqual([{ issue, mode: 'in' }]);
    }
  });

  it('ANDs several filters, keeping each list filter separate and the strictest bounds', () => {
    const f = parseExploreFilters(
      vql(
        { labels: { op: 'one_of', value: ['cat'] } },
        { labels: { op: 'one_of', value: ['dog', 'cow'] } },
        { tags: { op: 'is', value: 'x' } },
        { duplicates: { op: 'duplicates', value: 0.9 } },
        { duplicates: { op: 'duplicates', value: 0.8 } },
        { uniqueness: { op: 'uniqueness', value: 0.2 } },
        { uniqueness: { op: 'uniqueness', value: 0.6 } },
        { issues: { op: 'issue', value: 'blur', mode: 'out' } },
        { issues: { op: 'issue', value: 'bright' } },
        { text: { op: 'fts', value: 'a' } },
        { text: { op: 'semantic', value: 'b', threshold: 0.5 } },
      ),
    );
    expect(f).toEqual(
      withFilters({
        labels: [['cat'], ['dog', 'cow']],
        tags: [['x']],
        minDuplicateSimilarity: 0.9,
        minUniqueness: 0.6,
        issues: [
          { issue: 'blur', mode: 'out' },
          { issue: 'bright', mode: 'in' },
        ],
        text: [
          { op: 'fts', value: 'a', threshold: null },
          { op: 'semantic', value: 'b', threshold: 0.5 },
        ],
      }),
    );
  });

  it('accepts exactly 20 filters', () => {
    const elements = Array.from({ length: 20 }, () => ({ tags: { op: 'is', value: 't' } }));
    expect(parseExploreFilters(vql(...elements)).tags).toHaveLength(20);
  });
});

describe('parseExploreFilters: rejected vql', () => {
  it.each<[string, string, string]>([
    ['malformed JSON', '[{"text":', 'vql must be valid JSON'],
    ['not JSON at all', 'blur', 'vql must be valid JSON'],
    ['a JSON object', '{"text":{"op":"fts","value":"a"}}', 'vql must be a JSON array'],
    ['a JSON string', '"abc"', 'vql must be a JSON array'],
    ['a JSON number', '3', 'vql must be a JSON array'],
    ['JSON null', 'null', 'vql must be a JSON array'],
    ['21 filters', JSON.stringify(Array.from({ length: 21 }, () => ({ tags: { op: 'is', value: 't' } }))), 'at most 20 filters'],
  ])('%s', (_name, raw, message) => rejects({ vql: raw }, message));

  it.each<[string, unknown[], string]>([
    ['element is null', [null], 'vql[0] must be an object with exactly one key'],
    ['element is a string', ['blur'], 'vql[0] must be an object'],
    ['element is an array', [[{ tags: { op: 'is', value: 'a' } }]], 'vql[0] must be an object'],
    ['element with no key', [{}], 'vql[0] must have exactly one key'],
    ['element with two keys', [{ tags: { op: 'is', value: 'a' }, labels: { op: 'one_of', value: ['b'] } }], 'vql[0] must have exactly one key'],
    ['unknown filter', [{ tags: { op: 'is', value: 'a' } }, { color: { op: 'is', value: 'red' } }], "vql[1] has unknown filter 'color'"],
    ['prototype key', [JSON.parse('{"__proto__": {"op": "is", "value": "a"}}')], "vql[0] has unknown filter '__proto__'"],
    ['body not an object', [{ tags: 'a' }], 'vql[0].tags must be an object'],
    ['body is null', [{ uniqueness: null }], 'vql[0].uniqueness must be an object'],
    ['unknown body key', [{ labels: { op: 'one_of', value: ['a'], mode: 'in' } }], "vql[0].labels has unknown key 'mode'"],
    ['missing op', [{ text: { value: 'a' } }], 'vql[0].text.op is required'],
    ['missing value', [{ issues: { op: 'issue' } }], 'vql[0].issues.value is required'],
    ['text wrong op', [{ text: { op: 'like', value: 'a' } }], 'vql[0].text.op must be one of fts, semantic'],
    ['text value not a string', [{ text: { op: 'fts', value: 3 } }], 'vql[0].text.value must be a string'],
    ['text value blank', [{ text: { op: 'fts', value: '   ' } }], 'vql[0].text.value must not be empty'],
    ['text value too long', [{ text: { op: 'fts', value: 'x'.repeat(501) } }], 'vql[0].text.value must be at most 500 characters'],
    ['text threshold above 1', [{ text: { op: 'semantic', value: 'a', threshold: 1.5 } }], 'vql[0].text.threshold must be in [0, 1]'],
    ['text threshold negative', [{ text: { op: 'semantic', value: 'a', threshold: -0.1 } }], 'vql[0].text.threshold must be in [0, 1]'],
    ['text threshold a string', [{ text: { op: 'semantic', value: 'a', threshold: '0.5' } }], 'vql[0].text.threshold must be a number'],
    ['text threshold null', [{ text: { op: 'semantic', value: 'a', threshold: null } }], 'vql[0].text.threshold must be a number'],
    ['labels wrong op', [{ labels: { op: 'is', value: ['a'] } }], 'vql[0].labels.op must be one of one_of'],
    ['labels single string', [{ labels: { op: 'one_of', value: 'a' } }], 'vql[0].labels.value must be a non-empty array of strings'],
    ['labels empty array', [{ labels: { op: 'one_of', value: [] } }], 'vql[0].labels.value must be a non-empty array'],
    ['labels empty item', [{ labels: { op: 'one_of', value: ['a', ' '] } }], 'vql[0].labels.value[1] must be a non-empty string'],
    ['labels non-string item', [{ labels: { op: 'one_of', value: ['a', 2] } }], 'vql[0].labels.value[1] must be a non-empty string'],
    ['tags wrong op', [{ tags: { op: 'one_of', value: ['a'] } }], 'vql[0].tags.op must be one of is'],
    ['tags empty array', [{ tags: { op: 'is', value: [] } }], 'vql[0].tags.value must be a non-empty string or a non-empty array'],
    ['tags empty string', [{ tags: { op: 'is', value: '' } }], 'vql[0].tags.value[0] must be a non-empty string'],
    ['tags a number', [{ tags: { op: 'is', value: 5 } }], 'vql[0].tags.value must be a non-empty string or'],
    ['issues wrong op', [{ issues: { op: 'is', value: 'blur' } }], 'vql[0].issues.op must be one of issue'],
    ['issues unknown value', [{ tags: { op: 'is', value: 'a' } }, { issues: { op: 'issue', value: 'noisy' } }], 'vql[1].issues.value must be one of blur, dark, bright, outliers, duplicates'],
    ['issues wrong case', [{ issues: { op: 'issue', value: 'BLUR' } }], 'vql[0].issues.value must be one of'],
    ['issues wrong mode', [{ issues: { op: 'issue', value: 'blur', mode: 'not' } }], 'vql[0].issues.mode must be one of in, out'],
    ['duplicates wrong op', [{ duplicates: { op: 'issue', value: 0.9 } }], 'vql[0].duplicates.op must be one of duplicates'],
    ['duplicates at 0', [{ duplicates: { op: 'duplicates', value: 0 } }], 'vql[0].duplicates.value must be in (0, 1]'],
    ['duplicates above 1', [{ duplicates: { op: 'duplicates', value: 1.01 } }], 'vql[0].duplicates.value must be in (0, 1]'],
    ['duplicates a string', [{ duplicates: { op: 'duplicates', value: '0.9' } }], 'vql[0].duplicates.value must be a number'],
    ['uniqueness wrong op', [{ uniqueness: { op: 'gte', value: 0.5 } }], 'vql[0].uniqueness.op must be one of uniqueness'],
    ['uniqueness negative', [{ uniqueness: { op: 'uniqueness', value: -1 } }], 'vql[0].uniqueness.value must be in [0, 1]'],
    ['uniqueness above 1', [{ uniqueness: { op: 'uniqueness', value: 2 } }], 'vql[0].uniqueness.value must be in [0, 1]'],
    ['uniqueness a boolean', [{ uniqueness: { op: 'uniqueness', value: true } }], 'vql[0].uniqueness.value must be a number'],
  ])('%s', (_name, elements, message) => rejects({ vql: JSON.stringify(elements) }, message));
});

describe('parseExploreFilters: plain query parameters', () => {
  it.each<[string, ExploreQuery, Partial<ExploreFilters>]>([
    ['file_name', { file_name: ' IMG_01 ' }, { fileName: 'IMG_01' }],
    ['issue_type', { issue_type: 'duplicates' }, { issues: [{ issue: 'duplicates', mode: 'in' }] }],
    ['min_uniqueness as text', { min_uniqueness: '0.25' }, { minUniqueness: 0.25 }],
    ['max_uniqueness as a number', { max_uniqueness: 0.75 }, { maxUniqueness: 0.75 }],
    ['min and max uniqueness', { min_uniqueness: '0', max_uniqueness: '1' }, { minUniqueness: 0, maxUniqueness: 1 }],
    ['equal min and max uniqueness', { min_uniqueness: '.5', max_uniqueness: '5e-1' }, { minUniqueness: 0.5, maxUniqueness: 0.5 }],
    ['media_type', { media_type: 'VIDEO_FRAME' }, { mediaTypes: ['VIDEO_FRAME'] }],
    ['media_type list', { media_type: 'IMAGE, VIDEO,IMAGE' }, { mediaTypes: ['IMAGE', 'VIDEO'] }],
    ['caption alone is fts', { caption: ' red car ' }, { text: [{ op: 'fts', value: 'red car', threshold: null }] }],
    ['caption with threshold is semantic', { caption: 'red car', textual_similarity_threshold: '0.3' }, { text: [{ op: 'semantic', value: 'red car', threshold: 0.3 }] }],
    ['caption with numeric threshold', { caption: 'car', textual_similarity_threshold: 1 }, { text: [{ op: 'semantic', value: 'car', threshold: 1 }] }],
    ['labels list', { labels: 'cat, dog,,cat' }, { labels: [['cat', 'dog']] }],
    ['tags list', { tags: 'a' }, { tags: [['a']] }],
  ])('%s', (_name, query, expected) => {
    expect(parseExploreFilters(query)).toEqual(withFilters(expected));
  });

  it('accepts every issue_type and media_type', () => {
    for (const issue of ['duplicates', 'outliers', 'blur', 'dark', 'bright']) {
      expect(parseExploreFilters({ issue_type: issue }).issues).toEqual([{ issue, mode: 'in' }]);
    }
    for (const m of ['IMAGE', 'VIDEO_FRAME', 'VIDEO']) expect(parseExploreFilters({ media_type: m }).mediaTypes).toEqual([m]);
  });

  it.each<[string, ExploreQuery, string]>([
    ['unknown issue_type', { issue_type: 'noisy' }, 'issue_type must be one of blur, dark, bright, outliers, duplicates'],
    ['min_uniqueness not numeric', { min_uniqueness: 'high' }, 'min_uniqueness must be a number'],
    ['min_uniqueness hex', { min_uniqueness: '0x1' }, 'min_uniqueness must be a number'],
    ['max_uniqueness Infinity', { max_uniqueness: 'Infinity' }, 'max_uniqueness must be a number'],
    ['max_uniqueness NaN number', { max_uniqueness: Number.NaN }, 'max_uniqueness must be a number'],
    ['min_uniqueness above 1', { min_uniqueness: '1.5' }, 'min_uniqueness must be in [0, 1]'],
    ['max_uniqueness negative', { max_uniqueness: -0.1 }, 'max_uniqueness must be in [0, 1]'],
    ['min greater than max', { min_uniqueness: '0.8', max_uniqueness: '0.2' }, 'min_uniqueness (0.8) must not be greater than max_uniqueness (0.2)'],
    ['unknown media_type', { media_type: 'image' }, 'media_type must be one of IMAGE, VIDEO_FRAME, VIDEO'],
    ['media_type list with an unknown value', { media_type: 'IMAGE,AUDIO' }, 'media_type must be one of'],
    ['media_type only commas', { media_type: ',' }, 'media_type must be a comma-separated list'],
    ['caption too long', { caption: 'x'.repeat(501) }, 'caption must be at most 500 characters'],
    ['threshold without caption', { textual_similarity_threshold: '0.5' }, 'textual_similarity_threshold needs caption'],
    ['threshold not numeric', { caption: 'a', textual_similarity_threshold: 'abc' }, 'textual_similarity_threshold must be a number'],
    ['threshold out of range', { caption: 'a', textual_similarity_threshold: '2' }, 'textual_similarity_threshold must be in [0, 1]'],
    ['labels only commas', { labels: ' , ,' }, 'labels must be a comma-separated list with at least one value'],
    ['tags only commas', { tags: ',' }, 'tags must be a comma-separated list'],
    ['repeated parameter', { labels: ['a', 'b'] as unknown as string }, 'labels must be given once'],
    ['vql not a string', { vql: [] as unknown as string }, 'vql must be given once'],
  ])('rejects %s', (_name, query, message) => rejects(query, message));
});

describe('parseExploreFilters: vql and plain parameters together', () => {
  it('ANDs both sources into one filter set', () => {
    const f = parseExploreFilters({
      ...vql(
        { text: { op: 'semantic', value: 'dog', threshold: 0.2 } },
        { labels: { op: 'one_of', value: ['dog'] } },
        { tags: { op: 'is', value: ['good'] } },
        { issues: { op: 'issue', value: 'blur', mode: 'out' } },
        { uniqueness: { op: 'uniqueness', value: 0.3 } },
        { duplicates: { op: 'duplicates', value: 0.9 } },
      ),
      file_name: 'park',
      issue_type: 'dark',
      min_uniqueness: '0.1',
      max_uniqueness: '0.9',
      media_type: 'IMAGE',
      caption: 'grass',
      labels: 'park,tree',
      tags: 'new',
    });
    expect(f).toEqual({
      text: [
        { op: 'semantic', value: 'dog', threshold: 0.2 },
        { op: 'fts', value: 'grass', threshold: null },
      ],
      labels: [['dog'], ['park', 'tree']],
      tags: [['good'], ['new']],
      fields: [],
      issues: [
        { issue: 'blur', mode: 'out' },
        { issue: 'dark', mode: 'in' },
      ],
      minDuplicateSimilarity: 0.9,
      minUniqueness: 0.3,
      maxUniqueness: 0.9,
      fileName: 'park',
      mediaTypes: ['IMAGE'],
      mapPolygons: [],
    } satisfies ExploreFilters);
  });

  it('keeps the stricter of a vql and a plain lower uniqueness bound', () => {
    expect(parseExploreFilters({ ...vql({ uniqueness: { op: 'uniqueness', value: 0.2 } }), min_uniqueness: '0.7' }).minUniqueness).toBe(0.7);
  });

  it('validates vql before the plain parameters and reports the vql error', () => {
    rejects({ ...vql({ issues: { op: 'issue', value: 'x' } }), issue_type: 'noisy' }, 'vql[0].issues.value');
  });

  it('rejects a bad plain parameter even when vql is valid', () => {
    rejects({ ...vql({ tags: { op: 'is', value: 'a' } }), min_uniqueness: 'abc' }, 'min_uniqueness must be a number');
  });
});

describe('custom field filters', () => {
  const custom = (body: unknown) => ({ vql: JSON.stringify([{ custom: body }]) });

  it('parses equality, ranges, contains and exists, normalising datetimes to UTC', () => {
    expect(parseExploreFilters(custom({ field: 'weather', op: 'eq', value: 'rain' })).fields).toEqual([{ field: 'weather', op: 'eq', value: 'rain' }]);
    expect(parseExploreFilters(custom({ field: 'score', op: 'gte', value: 3 })).fields).toEqual([{ field: 'score', op: 'gte', value: 3 }]);
    expect(parseExploreFilters(custom({ field: 'taken', op: 'between', value: ['2024-01-01', '2024-02-01T12:00:00+01:00'] })).fields).toEqual([
      { field: 'taken', op: 'between', value: ['2024-01-01T00:00:00.000Z', '2024-02-01T11:00:00.000Z'] },
    ]);
    expect(parseExploreFilters(custom({ field: 'parts', op: 'contains', value: ' wheel ' })).fields).toEqual([{ field: 'parts', op: 'contains', value: 'wheel' }]);
    expect(parseExploreFilters(custom({ field: 'ok', op: 'exists', value: false })).fields).toEqual([{ field: 'ok', op: 'exists', value: false }]);
  });

  it('rejects bad fields, ops and values with the path', () => {
    rejects(custom({ field: 'bad name', op: 'eq', value: 1 }), 'vql[0].custom.field must be a custom field name');
    rejects(custom({ field: 'a', op: 'like', value: 1 }), 'vql[0].custom.op must be one of eq, ne, gt, gte, lt, lte, between, contains, exists');
    rejects(custom({ field: 'a', op: 'gt', value: 'soon' }), 'vql[0].custom.value must be a number or an ISO 8601 datetime');
    rejects(custom({ field: 'a', op: 'between', value: [5, 1] }), 'vql[0].custom.value: low must not be greater than high');
    rejects(custom({ field: 'a', op: 'between', value: [1, '2024-01-01'] }), 'vql[0].custom.value must be two numbers or two datetimes');
    rejects(custom({ field: 'a', op: 'exists', value: 'yes' }), 'vql[0].custom.value must be true or false');
  });
});

describe('isEmptyFilters', () => {
  it.each<[keyof ExploreFilters, ExploreFilters[keyof ExploreFilters]]>([
    ['text', [{ op: 'fts', value: 'a', threshold: null }]],
    ['labels', [['a']]],
    ['tags', [['a']]],
    ['issues', [{ issue: 'blur', mode: 'in' }]],
    ['minDuplicateSimilarity', 0.5],
    ['minUniqueness', 0],
    ['maxUniqueness', 1],
    ['fileName', 'a'],
    ['mediaTypes', ['IMAGE']],
  ])('is false when %s is set', (key, value) => {
    expect(isEmptyFilters({ ...emptyFilters(), [key]: value })).toBe(false);
  });
});
