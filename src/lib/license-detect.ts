import { listTemplates, readTemplate } from './templates';

// License detection in the spirit of Gitea's licenseclassifier (threshold .85): the text of a
// license file is compared with each shipped license template as sets of word pairs, so a
// filled copyright line, reflowed paragraphs or markdown decoration barely move the score.

const THRESHOLD = 0.85;

/** Gitea's license file names at the root of the default branch: LICENSE, COPYING, ... */
export function isLicenseFileName(name: string): boolean {
  return /^(LICEN[CS]E|COPYING|UNLICENSE)([.-][^/]*)?$/i.test(name);
}

const words = (text: string): string[] => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim().split(' ').filter(Boolean);

function pairs(text: string): Set<string> {
  const w = words(text);
  const out = new Set<string>();
  for (let i = 0; i + 1 < w.length; i++) out.add(`${w[i]} ${w[i + 1]}`);
  return out;
}

type Template = { names: string[]; pairs: Set<string> };
let templates: Template[] | null = null;

/**
 * Templates with identical texts (GPL-3.0, GPL-3.0-only, GPL-3.0-or-later) are one group named
 * by its shortest name, as Gitea's license aliases name them.
 */
function loadTemplates(): Template[] {
  if (templates) return templates;
  const byText = new Map<string, string[]>();
  for (const name of listTemplates('license')) {
    const text = words(readTemplate('license', name) ?? '').join(' ');
    byText.set(text, [...(byText.get(text) ?? []), name]);
  }
  templates = [...byText].map(([text, names]) => ({
    names: names.sort((a, b) => a.length - b.length || a.localeCompare(b)),
    pairs: pairs(text),
  }));
  return templates;
}

function similarity(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let common = 0;
  for (const p of a) if (b.has(p)) common++;
  return (2 * common) / (a.size + b.size);
}

/** The SPDX identifier of the best matching template, or null when none is close enough. */
export function detectLicense(text: string): string | null {
  const mine = pairs(text);
  let best: { name: string; score: number } | null = null;
  for (const t of loadTemplates()) {
    const score = similarity(mine, t.pairs);
    if (score >= THRESHOLD && (!best || score > best.score)) best = { name: t.names[0]!, score };
  }
  return best?.name ?? null;
}
