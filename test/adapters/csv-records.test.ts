import { describe, expect, it } from 'vitest';
import { type CsvRecord, CsvParser, MAX_RECORD_CHARS, csvRecords } from '../../src/adapters/tables/csv-records.js';

/** The header and records of `text` fed in pieces of `size` bytes (every cut point is tried by the callers). */
async function parse(text: string, size = 1 << 20): Promise<{ header: string[] | null; records: CsvRecord[] }> {
  const bytes = Buffer.from(text);
  const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
  let header: string[] | null = null;
  const records: CsvRecord[] = [];
  for await (const batch of csvRecords(chunks, (c) => (header = c))) records.push(...batch);
  return { header, records };
}

/** The same records however the bytes are cut: every chunk size from 1 byte up. */
async function parseEveryWay(text: string) {
  const whole = await parse(text);
  for (let size = 1; size < Buffer.byteLength(text); size++) expect(await parse(text, size)).toEqual(whole);
  return whole;
}

describe('csvRecords', () => {
  it('reads quoted cells, doubled quotes and a trimmed header', async () => {
    expect(await parseEveryWay(' a , b\n"x,y","say ""hi"""\nplain,"[""p"",""q""]"\n')).toEqual({
      header: ['a', 'b'],
      records: [
        { line: 2, cells: ['x,y', 'say "hi"'] },
        { line: 3, cells: ['plain', '["p","q"]'] },
      ],
    });
  });

  it('keeps line breaks inside quoted cells and numbers each row by the line it starts on', async () => {
    const { records } = await parseEveryWay('a,b\n1,"x\ny\nz"\n2,"p\r\nq"\n3,4');
    expect(records).toEqual([
      { line: 2, cells: ['1', 'x\ny\nz'] },
      { line: 5, cells: ['2', 'p\r\nq'] },
      { line: 7, cells: ['3', '4'] },
    ]);
  });

  it('reads CRLF and CR line ends and drops a BOM', async () => {
    expect(await parseEveryWay('\uFEFFa,b\r\n1,2\r\n\r\n3,4\r\n')).toEqual({ header: ['a', 'b'], records: [{ line: 2, cells: ['1', '2'] }, { line: 4, cells: ['3', '4'] }] });
    expect((await parseEveryWay('a,b\r1,2\r3,4')).records).toEqual([{ line: 2, cells: ['1', '2'] }, { line: 3, cells: ['3', '4'] }]);
  });

  it('skips empty lines but counts them', async () => {
    expect(await parseEveryWay('\n\na,b\n\n1,2\n\n\n3,4\n\n')).toEqual({ header: ['a', 'b'], records: [{ line: 5, cells: ['1', '2'] }, { line: 8, cells: ['3', '4'] }] });
  });

  it('rejects a row with the wrong number of cells by its line and goes on', async () => {
    const { records } = await parseEveryWay('a,b,c\n1,2\n"x\ny",2,3,4\n5,,\n');
    expect(records).toEqual([
      { line: 2, error: 'Invalid Record Length: columns length is 3, got 2 on line 2' },
      { line: 3, error: 'Invalid Record Length: columns length is 3, got 4 on line 3' },
      { line: 5, cells: ['5', '', ''] },
    ]);
  });

  it('rejects stray quotes for that row only', async () => {
    const { records } = await parseEveryWay('a,b\n1,x"y\n2,"xy"z\n3,4\n');
    expect(records).toEqual([
      { line: 2, error: 'Invalid Opening Quote: a quote is found on field "b" at line 2, value is "x"' },
      { line: 3, error: 'Invalid Closing Quote: got "z" at line 3 instead of delimiter, record delimiter, trimable character (if activated) or comment' },
      { line: 4, cells: ['3', '4'] },
    ]);
  });

  it('rejects a quote left open at the end of the file by the line it opens on', async () => {
    expect((await parseEveryWay('a,b\n1,2\n3,"abc\n4,5\n')).records).toEqual([
      { line: 2, cells: ['1', '2'] },
      { line: 3, error: 'Quote Not Closed: the parsing is finished with an opening quote at line 3' },
    ]);
  });

  it('reads multi-byte characters cut between chunks', async () => {
    expect((await parseEveryWay('a,b\nnaïve,"日本\n語"\n')).records).toEqual([{ line: 2, cells: ['naïve', '日本\n語'] }]);
  });

  it('has no header and no rows for an empty file', async () => {
    expect(await parse('')).toEqual({ header: null, records: [] });
  });

  it('fails rather than hold a row without end', () => {
    const parser = new CsvParser();
    parser.push('a,b\n1,"', []);
    expect(() => parser.push('x'.repeat(MAX_RECORD_CHARS + 1), [])).toThrow(/line 2: a row longer than/);
  });
});
