import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHostKeys } from '../../src/ssh/host-keys';
import { tempDir } from '../helpers/git';

describe('SSH host keys', () => {
  it('are made once per data directory, whole, even by two nodes starting together, and kept', async () => {
    const dir = tempDir('hearth-hostkeys-');
    const [a, b] = await Promise.all([loadHostKeys(dir), loadHostKeys(dir)]);
    expect(a.map(String)).toEqual(b.map(String));
    expect(String(a[0])).toContain('BEGIN OPENSSH PRIVATE KEY');
    expect(fs.statSync(path.join(dir, 'ssh', 'hearth.ed25519')).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(dir, 'ssh', 'hearth.rsa.pub'), 'utf8')).toMatch(/^ssh-rsa AAAA/);
    expect(fs.readdirSync(path.join(dir, 'ssh')).sort()).toEqual(['hearth.ed25519', 'hearth.ed25519.pub', 'hearth.rsa', 'hearth.rsa.pub']);
    const later = await loadHostKeys(dir);
    expect(later.map(String)).toEqual(a.map(String));
  });
});
