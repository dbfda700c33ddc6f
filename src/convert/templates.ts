import type { Config } from '../config/schema';
import type { TemplateLabel } from '../lib/label-templates';

// Gitea adds this GitHub-compatible sentence to every licence answer.
const IMPLEMENTATION = 'Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file';

const licenseUrl = (config: Config, name: string) => `${config.server.root_url}api/v1/licenses/${encodeURIComponent(name)}`;

/** LicensesTemplateListEntry: Gitea uses the SPDX id as both key and name. */
export const toApiLicenseEntry = (config: Config, name: string) => ({ key: name, name, url: licenseUrl(config, name) });

/** LicenseTemplateInfo */
export const toApiLicenseInfo = (config: Config, license: { name: string; body: string }) => ({
  key: license.name, name: license.name, url: licenseUrl(config, license.name),
  implementation: IMPLEMENTATION, body: license.body,
});

/** GitignoreTemplateInfo */
export const toApiGitignoreInfo = (gitignore: { name: string; source: string }) => ({ name: gitignore.name, source: gitignore.source });

/** LabelTemplate: the colour without its `#`, as Gitea answers. */
export const toApiLabelTemplate = (label: TemplateLabel) => ({
  name: label.name, color: label.color.replace(/^#+/, ''), description: label.description, exclusive: label.exclusive,
});
