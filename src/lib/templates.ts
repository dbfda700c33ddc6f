import fs from 'node:fs';
import path from 'node:path';

// Option files (licenses, gitignores, label sets, readmes) live under assets/options/<kind>/.
// From source they are read from disk; inside the executable they are SEA assets named
// `options/<kind>/<name>`, listed in the `options-manifest.json` asset that build.mjs writes.
export type TemplateKind = 'license' | 'gitignore' | 'label' | 'readme';

const OPTIONS_DIR = path.join(__dirname, '..', '..', 'assets', 'options');

function sea(): typeof import('node:sea') | null {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require('node:sea') as typeof import('node:sea');
  return mod.isSea() ? mod : null;
}

let manifest: Record<TemplateKind, string[]> | null = null;

function loadManifest(): Record<TemplateKind, string[]> {
  if (manifest) return manifest;
  const s = sea();
  if (s) {
    manifest = JSON.parse(s.getAsset('options-manifest.json', 'utf8')) as Record<TemplateKind, string[]>;
    return manifest;
  }
  const list = (kind: string) => {
    try {
      return fs.readdirSync(path.join(OPTIONS_DIR, kind)).filter((f) => !f.startsWith('.')).sort();
    } catch {
      return [];
    }
  };
  manifest = { license: list('license'), gitignore: list('gitignore'), label: list('label'), readme: list('readme') };
  return manifest;
}

/** Names of the templates of a kind, sorted. */
export const listTemplates = (kind: TemplateKind): string[] => loadManifest()[kind];

/** A template's text by exact name (as listed), or undefined. */
export function readTemplate(kind: TemplateKind, name: string): string | undefined {
  if (!listTemplates(kind).includes(name)) return undefined;
  const s = sea();
  if (s) return s.getAsset(`options/${kind}/${name}`, 'utf8');
  return fs.readFileSync(path.join(OPTIONS_DIR, kind, name), 'utf8');
}
