/** Every file of a drop, folders walked to the bottom (a drop gives folders as entries, not as files). */
export async function droppedFiles(data: DataTransfer): Promise<File[]> {
  // The items are readable only while the drop event runs: take their entries before the first await.
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) loose.push(file);
    }
  }
  const walked = await Promise.all(entries.map(filesOf));
  return [...loose, ...walked.flat()];
}

async function filesOf(entry: FileSystemEntry): Promise<File[]> {
  if (entry.isFile) {
    return [await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject))];
  }
  if (!entry.isDirectory) return [];
  const children = await allChildren((entry as FileSystemDirectoryEntry).createReader());
  return (await Promise.all(children.map(filesOf))).flat();
}

/** readEntries answers in chunks (100 at a time in Chromium) until it answers an empty list. */
async function allChildren(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  const all: FileSystemEntry[] = [];
  for (;;) {
    const chunk = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (chunk.length === 0) return all;
    all.push(...chunk);
  }
}
