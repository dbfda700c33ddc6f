import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { makeSshKeyOnce } from '../../src/services/signing/instance-key';

// The default ssh signing key made by several callers at once (nodes sharing a data directory
// signing their first commit together): one key, whole, that all of them then use.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-sshkey-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('four callers at once leave one key, its public half beside it, and no temp files', async () => {
  const file = path.join(dir, '.ssh', 'signing_ed25519');
  await Promise.all([1, 2, 3, 4].map(() => makeSshKeyOnce(file, 'noreply@example.com')));
  const derived = execFileSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' }).trim();
  expect(fs.readFileSync(`${file}.pub`, 'utf8').trim()).toBe(derived);
  expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['signing_ed25519', 'signing_ed25519.pub']);
  // Called again, it keeps the key.
  await makeSshKeyOnce(file, 'other@example.com');
  expect(execFileSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' }).trim()).toBe(derived);
});
