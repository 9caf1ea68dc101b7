/**
 * A minimal Parquet writer for test manifests (no writer ships with the project): required UTF-8 string
 * columns, PLAIN encoding, uncompressed v1 data pages, one page per column chunk, `rowsPerGroup` rows a group.
 * Metadata is Thrift compact protocol, as the format specifies.
 */
type Thrift =
  | { type: 5 | 6; value: number } // i32, i64
  | { type: 8; value: string }
  | { type: 9; items: Thrift[]; itemType: number }
  | { type: 12; fields: Array<[id: number, value: Thrift]> };

const i32 = (value: number): Thrift => ({ type: 5, value });
const i64 = (value: number): Thrift => ({ type: 6, value });
const text = (value: string): Thrift => ({ type: 8, value });
const list = (itemType: number, items: Thrift[]): Thrift => ({ type: 9, itemType, items });
const struct = (...fields: Array<[number, Thrift]>): Thrift => ({ type: 12, fields });

function encode(node: Thrift, out: number[]): void {
  const varint = (n: bigint) => {
    for (; n >= 0x80n; n >>= 7n) out.push(Number(n & 0x7fn) | 0x80);
    out.push(Number(n));
  };
  switch (node.type) {
    case 5:
    case 6: {
      const n = BigInt(node.value);
      return varint(n >= 0n ? n * 2n : -n * 2n - 1n); // zigzag
    }
    case 8: {
      const bytes = Buffer.from(node.value);
      varint(BigInt(bytes.length));
      return void out.push(...bytes);
    }
    case 9:
      out.push(node.items.length < 15 ? (node.items.length << 4) | node.itemType : 0xf0 | node.itemType);
      if (node.items.length >= 15) varint(BigInt(node.items.length));
      return node.items.forEach((item) => encode(item, out));
    case 12: {
      let last = 0;
      for (const [id, value] of node.fields) {
        out.push(((id - last) << 4) | value.type); // field ids here ascend in steps below 16
        encode(value, out);
        last = id;
      }
      return void out.push(0);
    }
  }
}

const thrift = (node: Thrift): Buffer => {
  const out: number[] = [];
  encode(node, out);
  return Buffer.from(out);
};

const BYTE_ARRAY = 6;
const UTF8 = 0;

export function tinyParquet(columns: string[], rows: string[][], rowsPerGroup = rows.length || 1): Buffer {
  const parts: Buffer[] = [Buffer.from('PAR1')];
  let offset = 4;
  const rowGroups: Thrift[] = [];
  for (let start = 0; start < Math.max(rows.length, 1); start += rowsPerGroup) {
    const group = rows.slice(start, start + rowsPerGroup);
    const chunks: Thrift[] = [];
    let groupBytes = 0;
    columns.forEach((name, index) => {
      const values = group.map((row) => Buffer.from(row[index] ?? ''));
      const data = Buffer.concat(values.flatMap((value) => [u32(value.length), value]));
      // DATA_PAGE, sizes, then DataPageHeader: values, PLAIN, RLE levels (absent: the column is required)
      const pageHeader = struct([1, i32(group.length)], [2, i32(0)], [3, i32(3)], [4, i32(3)]);
      const header = thrift(struct([1, i32(0)], [2, i32(data.length)], [3, i32(data.length)], [5, pageHeader]));
      const size = header.length + data.length;
      const meta = struct(
        [1, i32(BYTE_ARRAY)],
        [2, list(5, [i32(0)])],
        [3, list(8, [text(name)])],
        [4, i32(0)],
        [5, i64(group.length)],
        [6, i64(size)],
        [7, i64(size)],
        [9, i64(offset)],
      );
      chunks.push(struct([2, i64(offset)], [3, meta]));
      parts.push(header, data);
      offset += size;
      groupBytes += size;
    });
    rowGroups.push(struct([1, list(12, chunks)], [2, i64(groupBytes)], [3, i64(group.length)]));
  }
  const schema = [
    struct([4, text('schema')], [5, i32(columns.length)]),
    ...columns.map((name) => struct([1, i32(BYTE_ARRAY)], [3, i32(0)], [4, text(name)], [6, i32(UTF8)])),
  ];
  const footer = thrift(struct([1, i32(1)], [2, list(12, schema)], [3, i64(rows.length)], [4, list(12, rowGroups)]));
  parts.push(footer, u32(footer.length), Buffer.from('PAR1'));
  return Buffer.concat(parts);
}

const u32 = (n: number): Buffer => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(n);
  return buffer;
};
