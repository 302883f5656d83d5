/**
 * The last lines of a noisy stream (an agent's stderr), bounded in count and in line length:
 * agents print minified source dumps there, and the tail is only for error messages and logs.
 */
export class LineTail {
  private readonly lines: string[] = [];
  /** The unterminated line so far: its first maxLineChars characters and its full length. */
  private partial = '';
  private partialLength = 0;

  constructor(
    private readonly maxLines = 200,
    private readonly maxLineChars = 2000,
  ) {}

  /** Feeds a chunk; returns the lines it completed (for the log channel). */
  push(chunk: string): string[] {
    const parts = chunk.split(/\r?\n/);
    const rest = parts.pop() ?? '';
    const done = parts.map((part, i) => (i === 0 ? this.finish(part) : this.clip(part, part.length)));
    this.extend(rest);
    for (const line of done) this.lines.push(line);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
    return done;
  }

  /** The last `n` lines, including an unterminated last one. */
  last(n = 20): string[] {
    const all = this.partialLength > 0 ? [...this.lines, this.clip(this.partial, this.partialLength)] : this.lines;
    return all.slice(-n);
  }

  /** Ends the pending partial line with `piece`. */
  private finish(piece: string): string {
    this.extend(piece);
    // A `\r\n` split across chunks leaves the `\r` behind.
    if (this.partial.endsWith('\r') && this.partial.length === this.partialLength) {
      this.partial = this.partial.slice(0, -1);
      this.partialLength--;
    }
    const line = this.clip(this.partial, this.partialLength);
    this.partial = '';
    this.partialLength = 0;
    return line;
  }

  private extend(piece: string): void {
    if (this.partial.length < this.maxLineChars) this.partial += piece.slice(0, this.maxLineChars - this.partial.length);
    this.partialLength += piece.length;
  }

  private clip(line: string, length: number): string {
    return length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)}… (${length} chars)` : line;
  }
}
