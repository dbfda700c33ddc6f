import { describe, expect, it } from 'vitest';
import { fillLicense } from '../../src/lib/license-fill';
import { detectLicense, isLicenseFileName } from '../../src/lib/license-detect';
import { listTemplates, readTemplate } from '../../src/lib/templates';

// Templates whose texts are identical are reported by their shortest name, as Gitea's aliases.
const ALIAS: Record<string, string> = {
  'AGPL-3.0-only': 'AGPL-3.0', 'AGPL-3.0-or-later': 'AGPL-3.0', 'GPL-2.0-only': 'GPL-2.0', 'GPL-2.0-or-later': 'GPL-2.0',
  'GPL-3.0-only': 'GPL-3.0', 'GPL-3.0-or-later': 'GPL-3.0', 'LGPL-2.1-only': 'LGPL-2.1', 'LGPL-2.1-or-later': 'LGPL-2.1',
  'LGPL-3.0-only': 'LGPL-3.0', 'LGPL-3.0-or-later': 'LGPL-3.0',
};

describe('license detection', () => {
  it('every shipped template, filled as a new repository gets it, is recognised as itself', () => {
    for (const name of listTemplates('license')) {
      const text = fillLicense(name, readTemplate('license', name)!, { owner: 'Jane Doe', email: 'jane@example.com', repo: 'tool', year: '2031' });
      expect(detectLicense(text), name).toBe(ALIAS[name] ?? name);
    }
  });

  it('MIT and MIT-0 are told apart; unrelated text is nothing', () => {
    expect(detectLicense(readTemplate('license', 'MIT-0')!)).toBe('MIT-0');
    expect(detectLicense('This is my project. Use it as you like, but ask first.')).toBeNull();
    expect(detectLicense('')).toBeNull();
  });

  it('license file names', () => {
    for (const n of ['LICENSE', 'license.md', 'LICENCE.txt', 'COPYING', 'COPYING.LESSER', 'UNLICENSE', 'LICENSE-MIT']) expect(isLicenseFileName(n), n).toBe(true);
    for (const n of ['README.md', 'licenses', 'my-license', 'LICENSEE']) expect(isLicenseFileName(n), n).toBe(false);
  });
});
