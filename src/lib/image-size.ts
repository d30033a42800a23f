/** An image's pixel size and the extension its format is stored under. */
export interface ImageInfo {
  readonly width: number;
  readonly height: number;
  readonly ext: "png" | "jpg" | "gif";
  readonly contentType: string;
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

/**
 * The size of a PNG, JPEG or GIF, read from its header (PNG's IHDR, GIF's logical screen, JPEG's
 * first start-of-frame segment), or null for anything else: what Django's ImageField checks and
 * NetBox stores as `image_width` and `image_height`. Only the header is read; the rest of the file
 * is stored as sent.
 */
export function imageInfo(b: Uint8Array): ImageInfo | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length >= 24 && b[0] === 0x89 && ascii(b, 1, 3) === "PNG" && ascii(b, 12, 4) === "IHDR") {
    return sized(view.getUint32(16), view.getUint32(20), "png", "image/png");
  }
  if (b.length >= 10 && (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a")) {
    return sized(view.getUint16(6, true), view.getUint16(8, true), "gif", "image/gif");
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return jpegInfo(b, view);
  return null;
}

/** Walks a JPEG's segments to its first frame header (SOF0-SOF15 but DHT, JPG and DAC). */
function jpegInfo(b: Uint8Array, view: DataView): ImageInfo | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1];
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sized(view.getUint16(at + 7), view.getUint16(at + 5), "jpg", "image/jpeg");
    }
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

const sized = (width: number, height: number, ext: ImageInfo["ext"], contentType: string): ImageInfo | null =>
  width > 0 && height > 0 ? { width, height, ext, contentType } : null;
