/**
 * The lines of a UTF-8 byte stream (a leading BOM dropped), split on '\n' as the bytes arrive; the text after the
 * last newline comes last, even when empty.
 */
export async function* textLines(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for await (const chunk of body) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n');
    rest = lines.pop() ?? '';
    yield* lines;
  }
  yield rest + decoder.decode();
}
