// Secret values never leave the runner in a log row: every occurrence becomes `***`. Multi-line
// secrets are masked line by line too, since output arrives line by line.

export class Masker {
  private values: string[] = [];

  constructor(secrets: Iterable<string> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Adds a value to mask (secrets, and `::add-mask::` from a step). */
  add(value: string): void {
    const candidates = [value, ...value.split(/\r?\n/)].map((v) => v.trim()).filter((v) => v.length > 0);
    let changed = false;
    for (const v of candidates) {
      if (!this.values.includes(v)) {
        this.values.push(v);
        changed = true;
      }
    }
    // longest first, so a secret containing another is masked whole
    if (changed) this.values.sort((a, b) => b.length - a.length);
  }

  mask(line: string): string {
    let out = line;
    for (const v of this.values) if (out.includes(v)) out = out.split(v).join('***');
    return out;
  }
}
