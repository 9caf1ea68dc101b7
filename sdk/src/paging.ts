/** One page of a list: its items, and whether another page may follow. */
export interface Page<T> {
  items: T[];
  more: boolean;
}

/** Every item of an offset/limit list, page by page as the caller iterates. */
export async function* byOffset<T>(limit: number, read: (offset: number, limit: number) => Promise<Page<T>>): AsyncIterableIterator<T> {
  for (let offset = 0; ; offset += limit) {
    const page = await read(offset, limit);
    yield* page.items;
    if (!page.more || page.items.length === 0) return;
  }
}

/** Every item of a numbered list (page 0- or 1-based, as the route counts). */
export async function* byPageNumber<T>(first: number, read: (page: number) => Promise<Page<T>>): AsyncIterableIterator<T> {
  for (let page = first; ; page++) {
    const current = await read(page);
    yield* current.items;
    if (!current.more || current.items.length === 0) return;
  }
}
