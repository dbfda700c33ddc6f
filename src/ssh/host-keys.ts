import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { utils } from 'ssh2';
import { writeOnce } from '../lib/place-once';

// The server's host keys, ed25519 and RSA, generated into <data_dir>/ssh on the first start and
// kept: clients pin them, and a second node over the same data directory serves the same ones.
// Generated off the event loop: an RSA key takes a few hundred milliseconds, during which the
// HTTP server, already listening, keeps answering.

type KeyPair = { private: string; public: string };
const generate = promisify(utils.generateKeyPair) as (type: string, opts?: object) => Promise<KeyPair>;

const KEYS = [
  { file: 'hearth.ed25519', make: () => generate('ed25519') },
  { file: 'hearth.rsa', make: () => generate('rsa', { bits: 3072 }) },
] as const;

/** Writes a new key unless another process wrote one first; either way the file holds a whole key. */
function keep(at: string, pair: KeyPair): void {
  // A node starting at the same moment keeps the key the other one wrote.
  if (writeOnce(at, pair.private, 0o600)) fs.writeFileSync(`${at}.pub`, `${pair.public}\n`, { mode: 0o644 });
}

/** The private keys (OpenSSH format), each read or, when missing, generated and written. */
export async function loadHostKeys(dataDir: string): Promise<Buffer[]> {
  const dir = path.join(dataDir, 'ssh');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return Promise.all(KEYS.map(async ({ file, make }) => {
    const at = path.join(dir, file);
    if (!fs.existsSync(at)) keep(at, await make());
    return fs.readFileSync(at);
  }));
}
