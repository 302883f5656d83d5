/**
 * The last lines of a noisy stream (an agent's stderr), bounded in count and in line length:
 * agents print minified source dumps there, and the tail is only for error messages and logs.
 */
export class LineTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(
    private readonly maxLines = 200,
    private readonly maxLineChars = 2000,
  ) {}

  /** Feeds a chunk; returns the lines it completed (for the log channel). */
  push(chunk: string): string[] {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = this.clip(parts.pop() ?? '');
    const done = parts.map((l) => this.clip(l));
    for (const line of done) this.lines.push(line);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
    return done;
  }

  /** The last `n` lines, including an unterminated last one. */
  last(n = 20): string[] {
    const all = this.partial ? [...this.lines, this.partial] : this.lines;
    return all.slice(-n);
  }

  private clip(line: string): string {
    return line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)}… (${line.length} chars)` : line;
  }
}
