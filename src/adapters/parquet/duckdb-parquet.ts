import path from 'node:path';
import { type DuckDBAppender, type DuckDBConnection, DuckDBInstance, DuckDBTimestampTZValue, LIST, VARCHAR } from '@duckdb/node-api';

/** `JSON`: a nested value kept as its JSON text in a VARCHAR column (readers without DuckDB's json extension read it too). */
export type ParquetColumnType = 'VARCHAR' | 'BIGINT' | 'INTEGER' | 'DOUBLE' | 'BOOLEAN' | 'VARCHAR[]' | 'TIMESTAMPTZ' | 'JSON';

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
const STRING_LIST = LIST(VARCHAR);

/**
 * Rows appended one at a time into a DuckDB table on disk (so a large export spills instead of growing
 * memory), then written as one snappy Parquet file — the codec every reader has, pure-JS ones included —
 * with exactly the declared column types, so an all-null column is still typed.
 */
export class ParquetRows {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private readonly appender: DuckDBAppender,
    private readonly columns: Array<[string, ParquetColumnType]>,
  ) {}

  /** `dir` holds DuckDB's own file; the caller removes it. */
  static async open(dir: string, columns: Record<string, ParquetColumnType>): Promise<ParquetRows> {
    const instance = await DuckDBInstance.create(path.join(dir, 'rows.duckdb'), { threads: '2', memory_limit: '192MB' });
    const connection = await instance.connect();
    const definition = Object.entries(columns)
      .map(([name, type]) => `"${name}" ${type === 'JSON' ? 'VARCHAR' : type}`)
      .join(', ');
    await connection.run(`create table rows (${definition})`);
    return new ParquetRows(instance, connection, await connection.createAppender('rows'), Object.entries(columns));
  }

  append(row: Record<string, unknown>): void {
    for (const [name, type] of this.columns) {
      const value = row[name];
      if (value === null || value === undefined) this.appender.appendNull();
      else if (type === 'VARCHAR') this.appender.appendVarchar(String(value));
      else if (type === 'BIGINT') this.appender.appendBigInt(BigInt(value as number));
      else if (type === 'INTEGER') this.appender.appendInteger(value as number);
      else if (type === 'DOUBLE') this.appender.appendDouble(value as number);
      else if (type === 'BOOLEAN') this.appender.appendBoolean(value as boolean);
      else if (type === 'VARCHAR[]') this.appender.appendList(value as string[], STRING_LIST);
      else if (type === 'JSON') this.appender.appendVarchar(JSON.stringify(value));
      else this.appender.appendTimestampTZ(new DuckDBTimestampTZValue(BigInt(Date.parse(value as string)) * 1000n));
    }
    this.appender.endRow();
  }

  async finish(parquetPath: string): Promise<void> {
    try {
      this.appender.closeSync();
      await this.connection.run(`copy rows to ${quote(parquetPath)} (format parquet, compression snappy)`);
    } finally {
      this.close();
    }
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
