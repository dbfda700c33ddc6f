import { describe, expect, it } from 'vitest';
import { installCommandFor } from '../../src/services/packages/install-command';

// The install command each repository registry's page shows, per client.

const c = (props: Record<string, string> = {}) => ({ registry: 'http://h/api/packages/alice/T', owner: 'alice', name: 'tiny', version: '1.0-1', props });

describe('install commands', () => {
  it('names the package and version as each client wants them', () => {
    expect(installCommandFor('debian', c())).toBe('apt install tiny=1.0-1');
    expect(installCommandFor('rpm', c())).toBe('dnf install tiny-1.0-1');
    expect(installCommandFor('arch', c())).toBe('pacman -S tiny');
    expect(installCommandFor('alpine', c())).toBe('apk add tiny=1.0-1');
    expect(installCommandFor('cran', c())).toBe('install.packages("tiny", repos = "http://h/api/packages/alice/T")');
    expect(installCommandFor('conan', c())).toBe('conan install --requires=tiny/1.0-1 --remote=alice');
    expect(installCommandFor('nuget', c())).toBe('dotnet add package --source http://h/api/packages/alice/T/index.json --version 1.0-1 tiny');
  });

  it('puts a conda package\'s channel in the URL; a type without a command gets null', () => {
    expect(installCommandFor('conda', c({ 'conda.channel': 'main' }))).toBe('conda install --channel http://h/api/packages/alice/T/main tiny==1.0-1');
    expect(installCommandFor('conda', c())).toBe('conda install --channel http://h/api/packages/alice/T tiny==1.0-1');
    expect(installCommandFor('toString', c())).toBeNull();
  });
});
