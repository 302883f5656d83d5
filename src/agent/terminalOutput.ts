/**
 * The output of a client terminal: UTF-8 decoded as it streams in, optionally bounded in bytes by
 * dropping from the front at a character boundary (ACP `outputByteLimit`).
 */

/** UTF-8 length of `text` (the same as Buffer.byteLength, without a Buffer). */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * How many UTF-16 units to drop from the start of `text` so that at least `excess` bytes of its
 * UTF-8 form go, cutting only between code points (a surrogate pair is one 4-byte character).
 * Returns the index and the bytes actually dropped (may exceed `excess` by up to 3).
 */
export function cutFront(text: string, excess: number): { index: number; dropped: number } {
  let index = 0;
  let dropped = 0;
  while (dropped < excess && index < text.length) {
    const c = text.charCodeAt(index);
    if (c < 0x80) {
      dropped += 1;
      index += 1;
    } else if (c < 0x800) {
      dropped += 2;
      index += 1;
    } else if (c >= 0xd800 && c <= 0xdbff && index + 1 < text.length && isLowSurrogate(text.charCodeAt(index + 1))) {
      dropped += 4;
      index += 2;
    } else {
      // The rest of the BMP; a lone surrogate is encoded as U+FFFD, also 3 bytes.
      dropped += 3;
      index += 1;
    }
  }
  return { index, dropped };
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * The last at most `maxBytes` bytes of `text` (of `textBytes` bytes), cut at a character
 * boundary. Only looks at the end of a long text.
 */
export function tailBytes(text: string, maxBytes: number, textBytes = utf8Bytes(text)): { text: string; bytes: number; cut: boolean } {
  if (textBytes <= maxBytes) return { text, bytes: textBytes, cut: false };
  // Every UTF-16 unit is at least one byte, so the last maxBytes units hold enough; start on a
  // code point (not on the low half of a pair).
  let start = Math.max(0, text.length - maxBytes);
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start -= 1;
  let tail = text.slice(start);
  let bytes = utf8Bytes(tail);
  if (bytes > maxBytes) {
    const { index, dropped } = cutFront(tail, bytes - maxBytes);
    tail = tail.slice(index);
    bytes -= dropped;
  }
  return { text: tail, bytes, cut: true };
}

/** One decoder per stream, so a character split across two chunks is decoded whole. */
export class StreamDecoder {
  private readonly decoder = new TextDecoder('utf-8');

  decode(chunk: Uint8Array): string {
    return this.decoder.decode(chunk, { stream: true });
  }

  /** What is left (an incomplete sequence at the very end becomes U+FFFD). */
  end(): string {
    return this.decoder.decode();
  }
}

/**
 * Decoded output, at most `limit` bytes of it when a limit is set. Kept as a list of chunks, so a
 * chatty process under a large limit costs a small slice per chunk, not a copy of the whole text.
 */
export class OutputBuffer {
  private chunks: string[] = [];
  private chunkBytes: number[] = [];
  private bytes = 0;
  private dropped = false;

  constructor(private readonly limit?: number) {}

  append(chunk: string): void {
    if (chunk === '') return;
    this.chunks.push(chunk);
    this.chunkBytes.push(utf8Bytes(chunk));
    this.bytes += this.chunkBytes[this.chunkBytes.length - 1];
    if (this.limit === undefined || this.bytes <= this.limit) return;
    this.dropped = true;
    // Whole chunks first, then a character-boundary cut inside the first one left.
    let drop = 0;
    while (drop < this.chunks.length - 1 && this.bytes - this.chunkBytes[drop] >= this.limit) this.bytes -= this.chunkBytes[drop++];
    if (drop > 0) {
      this.chunks.splice(0, drop);
      this.chunkBytes.splice(0, drop);
    }
    if (this.bytes > this.limit) {
      const { index, dropped } = cutFront(this.chunks[0], this.bytes - this.limit);
      this.chunks[0] = this.chunks[0].slice(index);
      this.chunkBytes[0] -= dropped;
      this.bytes -= dropped;
    }
  }

  get output(): string {
    if (this.chunks.length > 1) {
      this.chunks = [this.chunks.join('')];
      this.chunkBytes = [this.bytes];
    }
    return this.chunks[0] ?? '';
  }
  get byteLength(): number {
    return this.bytes;
  }
  /** Something was dropped from the front to respect the limit. */
  get truncated(): boolean {
    return this.dropped;
  }

  /** The last `maxBytes` bytes, for views that show a tail; `truncated` if anything before is missing. */
  tail(maxBytes: number): { output: string; truncated: boolean } {
    let from = this.chunks.length;
    let bytes = 0;
    while (from > 0 && bytes < maxBytes) bytes += this.chunkBytes[--from];
    const { text, cut } = tailBytes(this.chunks.slice(from).join(''), maxBytes, bytes);
    return { output: text, truncated: this.dropped || cut || from > 0 };
  }
}
