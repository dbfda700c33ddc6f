import { NotFoundError } from '../lib/errors';
import { listLabelTemplates, loadLabelTemplate, type TemplateLabel } from '../lib/label-templates';
import { listTemplates, readTemplate } from '../lib/templates';

// The option templates a repository can be created with, as Gitea's misc endpoints list them.

// Gitea's [repository] PREFERRED_LICENSES default: listed first, the rest in name order.
const PREFERRED_LICENSES = ['Apache-2.0', 'MIT'];

const notFound = () => new NotFoundError('The target couldn\'t be found.');

export function listLicenseNames(): string[] {
  const all = listTemplates('license');
  const preferred = PREFERRED_LICENSES.filter((n) => all.includes(n));
  return [...preferred, ...all.filter((n) => !PREFERRED_LICENSES.includes(n))];
}

export function getLicenseText(name: string): { name: string; body: string } {
  const body = readTemplate('license', name);
  if (body === undefined) throw notFound();
  return { name, body };
}

export const listGitignoreNames = (): string[] => listTemplates('gitignore');

export function getGitignoreText(name: string): { name: string; source: string } {
  const source = readTemplate('gitignore', name);
  if (source === undefined) throw notFound();
  return { name, source };
}

export const listLabelTemplateNames = (): string[] => listLabelTemplates();

export function getLabelTemplate(name: string): TemplateLabel[] {
  const labels = loadLabelTemplate(name);
  if (!labels) throw notFound();
  return labels;
}
