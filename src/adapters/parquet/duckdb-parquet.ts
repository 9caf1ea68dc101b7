import { DuckDBInstance } from '@duckdb/node-api';

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Newline-delimited JSON on disk → a snappy Parquet file (the codec every reader has, pure-JS ones
 * included) with exactly the given column types (so an all-null column is still typed), by DuckDB in
 * process: it streams the input, whatever its size.
 */
export async function writeParquetFromNdjson(ndjsonPath: string, parquetPath: string, columns: Record<string, string>): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: '256MB' });
  const connection = await instance.connect();
  try {
    const spec = Object.entries(columns)
      .map(([name, type]) => `${quote(name)}: ${quote(type)}`)
      .join(', ');
    const names = Object.keys(columns)
      .map((name) => `"${name}"`)
      .join(', ');
    await connection.run(
      `copy (select ${names} from read_json(${quote(ndjsonPath)}, format = 'newline_delimited', columns = {${spec}})) ` +
        `to ${quote(parquetPath)} (format parquet, compression snappy)`,
    );
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
