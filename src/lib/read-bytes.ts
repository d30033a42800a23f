/**
 * A stream's bytes, read whole unless they pass `maxBytes`: then reading stops, the stream is
 * cancelled (not awaited: the source may be slow to wind down) and the answer is null. Only what
 * has arrived is held, so a huge body never sits in memory. A failing read throws as the stream does.
 */
export async function readUpTo(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(chunk.value);
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
