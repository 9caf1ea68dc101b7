import yauzl from 'yauzl';

export interface ZipEntry {
  name: string;
  /** 0 = stored, 8 = deflated. */
  method: number;
  bytes: Buffer;
}

/** Every entry of a ZIP held in memory (test archives are small), read by yauzl, an independent reader. */
export async function readZip(data: Buffer): Promise<Map<string, ZipEntry>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(data, { lazyEntries: true, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z!))),
  );
  const entries = new Map<string, ZipEntry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream!.on('data', (c: Buffer) => chunks.push(c));
        stream!.on('error', reject);
        stream!.on('end', () => {
          entries.set(entry.fileName, { name: entry.fileName, method: entry.compressionMethod, bytes: Buffer.concat(chunks) });
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return entries;
}
