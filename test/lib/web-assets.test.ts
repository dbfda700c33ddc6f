import { describe, expect, it } from 'vitest';
import { webAssetByFile, webAssetFile } from '../../src/lib/web-assets';

// The pages' own stylesheet and script: named by their content, and within the byte budgets of
// the design (CSS <= 12 KB and JS <= 8 KB brotli, for any page).

describe('web assets', () => {
  it('are named by a hash of their content and precompressed', () => {
    for (const name of ['hearth.css', 'hearth.js'] as const) {
      const file = webAssetFile(name);
      expect(file).toMatch(/^hearth\.[0-9a-f]{12}\.(css|js)$/);
      const asset = webAssetByFile(file)!;
      expect(asset.br.length).toBeLessThan(asset.raw.length);
      expect(asset.gzip.length).toBeLessThan(asset.raw.length);
    }
    expect(webAssetByFile('hearth.css')).toBeUndefined();
  });

  it('stay within the budgets', () => {
    expect(webAssetByFile(webAssetFile('hearth.css'))!.br.length).toBeLessThanOrEqual(12 * 1024);
    expect(webAssetByFile(webAssetFile('hearth.js'))!.br.length).toBeLessThanOrEqual(8 * 1024);
  });
});
