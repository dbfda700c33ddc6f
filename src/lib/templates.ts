import fs from 'node:fs';
import path from 'node:path';
import { inExecutable, payloadFile } from './sea-payload';

// Option files (licenses, gitignores, label sets, readmes) live under assets/options/<kind>/.
// From source they are read from disk; inside the executable they are packed files named
// `options/<kind>/<name>` (sea-payload.ts), listed in the `options-manifest.json` build.mjs writes.
export type TemplateKind = 'license' | 'gitignore' | 'label' | 'readme';

const OPTIONS_DIR = path.join(__dirname, '..', '..', 'assets', 'options');

const packed = (name: string): string | undefined => payloadFile(name)?.toString('utf8');

let manifest: Record<TemplateKind, string[]> | null = null;

function loadManifest(): Record<TemplateKind, string[]> {
  if (manifest) return manifest;
  if (inExecutable()) {
    manifest = JSON.parse(packed('options-manifest.json') ?? '{}') as Record<TemplateKind, string[]>;
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
  if (inExecutable()) return packed(`options/${kind}/${name}`);
  return fs.readFileSync(path.join(OPTIONS_DIR, kind, name), 'utf8');
}
