// Progress of a dump or restore on stderr: a bar redrawn in place on a terminal, nothing but the
// final summary line otherwise (logs and cron mail stay one line).

const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

export class Progress {
  items = 0;
  bytes = 0;
  private last = 0;
  private readonly tty: boolean;

  constructor(private readonly totalItems: number, private readonly totalBytes: number, private readonly out: NodeJS.WriteStream = process.stderr) {
    this.tty = Boolean(out.isTTY);
  }

  item(): void {
    this.items += 1;
    this.draw();
  }

  add(bytes: number): void {
    this.bytes += bytes;
    this.draw();
  }

  private draw(force = false): void {
    if (!this.tty) return;
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    const ratio = this.totalBytes ? Math.min(1, this.bytes / this.totalBytes) : this.totalItems ? this.items / this.totalItems : 1;
    const width = 30;
    const full = Math.round(ratio * width);
    const bar = `${'#'.repeat(full)}${'.'.repeat(width - full)}`;
    this.out.write(`\r[${bar}] ${(ratio * 100).toFixed(0).padStart(3)}%  ${this.items}${this.totalItems ? `/${this.totalItems}` : ''} items  ${mib(this.bytes)}/${mib(this.totalBytes)}\u001b[K`);
  }

  /** Ends the bar (on a terminal) and prints the summary line. */
  done(summary: string): void {
    if (this.tty) {
      this.draw(true);
      this.out.write('\n');
    }
    this.out.write(`${summary}\n`);
  }
}

export const formatBytes = mib;
