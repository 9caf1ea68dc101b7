/** A CSV record after the header: its cells, or why it cannot be read. `line` is the line it starts on, from 1. */
export type CsvRecord = { line: number; cells: string[] } | { line: number; error: string };

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/** Longer than any row a valid file has (200 fields of 10,000 characters): past it a quote was surely left open. */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;

/**
 * RFC 4180 records, pushed text in, records out: quoted cells with doubled quotes and line breaks, LF, CRLF or
 * CR line ends, empty lines skipped. The first record is the header (`columns`, trimmed); a later record with
 * another number of cells, or a stray quote, is an error record and the next line goes on.
 */
export class CsvParser {
  columns: string[] | null = null;
  private rest = '';
  private pending: string[] = [];
  private pendingLength = 0;
  /** The line `rest` starts on. */
  private line = 1;

  /** Parses what `text` completes; an unfinished last record waits for more (or for `end`). */
  push(text: string, out: CsvRecord[]): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    // A record longer than a chunk is parsed again only once the text has doubled: linear, not quadratic.
    if (this.pendingLength < this.rest.length) return;
    this.parse(false, out);
  }

  end(out: CsvRecord[]): void {
    this.parse(true, out);
  }

  private parse(final: boolean, out: CsvRecord[]): void {
    const s = this.rest + this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    const n = s.length;
    let i = 0;
    let line = this.line;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === LF || c === CR) {
        if (c === CR && i + 1 === n && !final) break; // a CRLF cut between chunks
        i += c === CR && s.charCodeAt(i + 1) === LF ? 2 : 1;
        line += 1;
        continue;
      }
      const read = readRecord(s, i, line, final, this.columns);
      if (read === null) break;
      i = read.end;
      this.emit(read, out);
      line = read.nextLine;
    }
    this.rest = s.slice(i);
    this.line = line;
    if (this.rest.length > MAX_RECORD_CHARS) throw new Error(`line ${line}: a row longer than ${MAX_RECORD_CHARS} characters (is a quote left open?)`);
  }

  private emit(read: ReadRecord, out: CsvRecord[]): void {
    if (this.columns === null) {
      this.columns = read.cells.map((c) => c.trim());
      return;
    }
    if (read.error !== null) out.push({ line: read.line, error: read.error });
    else if (read.cells.length !== this.columns.length) {
      out.push({ line: read.line, error: `Invalid Record Length: columns length is ${this.columns.length}, got ${read.cells.length} on line ${read.line}` });
    } else out.push({ line: read.line, cells: read.cells });
  }
}

interface ReadRecord {
  cells: string[];
  error: string | null;
  line: number;
  nextLine: number;
  /** Just past the record's line end. */
  end: number;
}

/** One record from `start`, or null when the text ends inside it and more may come. */
function readRecord(s: string, start: number, line: number, final: boolean, columns: string[] | null): ReadRecord | null {
  const n = s.length;
  const cells: string[] = [];
  let error: string | null = null;
  let nextLine = line;
  let i = start;
  for (;;) {
    let c = i < n ? s.charCodeAt(i) : -1;
    if (c === QUOTE) {
      let value = '';
      let from = i + 1;
      for (;;) {
        const q = s.indexOf('"', from);
        if (q === -1) {
          if (!final) return null;
          nextLine += lineBreaks(s, from, n);
          return { cells, error: `Quote Not Closed: the parsing is finished with an opening quote at line ${line}`, line, nextLine, end: n };
        }
        if (q + 1 === n && !final) return null;
        nextLine += lineBreaks(s, from, q);
        if (s.charCodeAt(q + 1) === QUOTE) {
          value += s.slice(from, q + 1);
          from = q + 2;
          continue;
        }
        value += s.slice(from, q);
        i = q + 1;
        break;
      }
      cells.push(value);
      c = i < n ? s.charCodeAt(i) : -1;
      if (c !== COMMA && c !== LF && c !== CR && c !== -1) {
        error = `Invalid Closing Quote: got "${s[i]}" at line ${nextLine} instead of delimiter, record delimiter, trimable character (if activated) or comment`;
      }
    } else {
      let j = i;
      while (j < n) {
        c = s.charCodeAt(j);
        if (c === COMMA || c === LF || c === CR) break;
        if (c === QUOTE) {
          error = `Invalid Opening Quote: a quote is found on field ${JSON.stringify(columns?.[cells.length] ?? cells.length)} at line ${nextLine}, value is ${JSON.stringify(s.slice(i, j))}`;
          break;
        }
        j += 1;
      }
      if (j === n) {
        if (!final) return null;
        c = -1;
      }
      cells.push(s.slice(i, j));
      i = j;
    }
    if (error !== null) {
      // The rest of the line belongs to the bad record: skip to its end.
      while (i < n && (c = s.charCodeAt(i)) !== LF && c !== CR) i += 1;
      if (i === n) {
        if (!final) return null;
        c = -1;
      }
    }
    if (c === COMMA) {
      i += 1;
      continue;
    }
    if (c === -1) return { cells, error, line, nextLine: nextLine + 1, end: n };
    if (c === CR && i + 1 === n && !final) return null;
    const end = c === CR && s.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
    return { cells, error, line, nextLine: nextLine + 1, end };
  }
}

/** Line breaks (LF, CRLF or CR) in s[from, to). */
function lineBreaks(s: string, from: number, to: number): number {
  let count = 0;
  for (let k = from; k < to; k++) {
    const c = s.charCodeAt(k);
    if (c === LF || (c === CR && s.charCodeAt(k + 1) !== LF)) count += 1;
  }
  return count;
}

/** The records of a UTF-8 byte stream (a leading BOM dropped), a batch per chunk read; `onHeader` gets the header first. */
export async function* csvRecords(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, onHeader: (columns: string[]) => void): AsyncGenerator<CsvRecord[]> {
  const decoder = new TextDecoder('utf-8');
  const parser = new CsvParser();
  let announced = false;
  const batch = (out: CsvRecord[]) => {
    if (!announced && parser.columns !== null) {
      announced = true;
      onHeader(parser.columns);
    }
    return out;
  };
  for await (const chunk of body) {
    const out: CsvRecord[] = [];
    parser.push(decoder.decode(chunk, { stream: true }), out);
    if (batch(out).length > 0 || announced) yield out;
  }
  const out: CsvRecord[] = [];
  parser.push(decoder.decode(), out);
  parser.end(out);
  yield batch(out);
}
