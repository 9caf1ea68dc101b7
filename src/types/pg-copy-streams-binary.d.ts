// pg-copy-streams-binary ships no types: just the row reader Loupe uses.
declare module 'pg-copy-streams-binary' {
  import type { Transform } from 'node:stream';

  export interface FieldMapping {
    key: string;
    type: 'bool' | 'bytea' | 'int2' | 'int4' | 'int8' | 'text' | 'varchar' | 'json' | 'jsonb' | 'float4' | 'float8' | 'timestamptz';
  }

  // A CommonJS module whose exports Node's ESM loader cannot name: imported as its default.
  const copyBinary: {
    /** Parses a `COPY … TO STDOUT (FORMAT binary)` stream into one object per row, keyed by the mapping. */
    rowReader(options: { mapping: FieldMapping[] }): Transform;
  };
  export default copyBinary;
}
