import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HashingCounter } from './hashing';
import type { ChunkedUploads, PutOptions } from './storage';

// Chunked uploads on local disk: one file at the key, each chunk written at its offset. The
// file is under the data directory, which nodes share (README, "Running several nodes"), so a
// chunk may reach any node; the state is the database's offset alone ('' here).

export class LocalChunks implements ChunkedUploads {
  constructor(private readonly pathOf: (key: string) => string) {}

  async begin(key: string): Promise<string> {
    const file = this.pathOf(key);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
    return '';
  }

  async append(key: string, state: string, offset: number, input: Readable, opts: PutOptions = {}): Promise<{ state: string; size: number }> {
    const file = this.pathOf(key);
    const counter = new HashingCounter(opts.maxSize ?? -1, opts.tooLarge);
    try {
      await pipeline(input, counter, fs.createWriteStream(file, { flags: 'r+', start: offset }));
    } catch (err) {
      // A chunk cut short (client abort, too large) is cut away: the session stays at `offset`.
      try { fs.truncateSync(file, offset); } catch { /* the session was removed meanwhile */ }
      throw err;
    }
    return { state, size: counter.size };
  }

  async complete(_key: string, state: string): Promise<string> {
    return state;
  }

  async abort(key: string): Promise<void> {
    fs.rmSync(this.pathOf(key), { force: true });
  }
}
