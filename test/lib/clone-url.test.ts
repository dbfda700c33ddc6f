import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import { sshCloneUrl } from '../../src/lib/clone-url';
import { parseRepoPath, splitCommand } from '../../src/services/git-transport/ssh-command';

const config = (env: Record<string, string>) => loadConfig(null, {}, { HEARTH__SERVER__ROOT_URL: 'https://git.example.com/', ...env });

describe('SSH clone URLs', () => {
  it('uses the scp-like form on port 22 and ssh:// with the port otherwise', () => {
    expect(sshCloneUrl(config({ HEARTH__SERVER__SSH_PORT: '22' }), 'alice', 'code')).toBe('git@git.example.com:alice/code.git');
    expect(sshCloneUrl(config({ HEARTH__SERVER__SSH_LISTEN_PORT: '2222' }), 'alice', 'code')).toBe('ssh://git@git.example.com:2222/alice/code.git');
  });

  it('follows ssh_domain, ssh_user and ssh_port, and shows 22 for the system sshd', () => {
    const c = config({ HEARTH__SERVER__SSH_DOMAIN: 'ssh.example.com', HEARTH__SERVER__SSH_USER: 'forge', HEARTH__SERVER__SSH_PORT: '2200' });
    expect(sshCloneUrl(c, 'org', 'repo')).toBe('ssh://forge@ssh.example.com:2200/org/repo.git');
    expect(sshCloneUrl(config({ HEARTH__SERVER__START_SSH_SERVER: 'false', HEARTH__SERVER__SSH_LISTEN_PORT: '2222' }), 'a', 'b')).toBe('git@git.example.com:a/b.git');
    expect(sshCloneUrl(config({ HEARTH__SERVER__SSH_DOMAIN: '::1', HEARTH__SERVER__SSH_PORT: '2222' }), 'a', 'b')).toBe('ssh://git@[::1]:2222/a/b.git');
  });
});

describe('SSH command lines', () => {
  it('splits as a shell quotes, and reads repository paths as Gitea', () => {
    expect(splitCommand("git-upload-pack '/alice/my repo.git'")).toEqual(['git-upload-pack', '/alice/my repo.git']);
    expect(splitCommand('git-lfs-authenticate "alice/x" upload')).toEqual(['git-lfs-authenticate', 'alice/x', 'upload']);
    expect(splitCommand("git-upload-pack 'open")).toBeNull();
    expect(parseRepoPath('/alice/code.git')).toEqual({ owner: 'alice', name: 'code' });
    expect(parseRepoPath('alice/code.wiki.git')).toEqual({ owner: 'alice', name: 'code.wiki' });
    expect(parseRepoPath('alice/code')).toEqual({ owner: 'alice', name: 'code' });
    expect(parseRepoPath('../etc/passwd')).toBeNull();
    expect(parseRepoPath('alice/../../x')).toBeNull();
  });
});
