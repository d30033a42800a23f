/** A buffer with ES2024's members, which the TypeScript lib in use may not declare. */
type Detachable = ArrayBufferLike & { readonly detached?: boolean; transfer?(length: number): ArrayBuffer };

/** The buffer `bytes` span whole, so theirs alone to move or free; null for a view of a larger one. */
export const wholeBuffer = (bytes: Uint8Array): ArrayBuffer | null =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : null;

/**
 * Frees a buffer's memory now rather than at the collector's leisure: ES2024's `transfer(0)`
 * detaches it, which releases its memory (Node 21 and later; where it is missing, the collector
 * frees it as before). A buffer already detached (moved to another thread) is left alone.
 */
export function freeBuffer(buffer: ArrayBufferLike): void {
  const detachable = buffer as Detachable;
  if (!detachable.detached && typeof detachable.transfer === "function") detachable.transfer(0);
}
