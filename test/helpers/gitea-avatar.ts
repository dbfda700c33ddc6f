import { expect } from 'vitest';
import { PNG } from 'pngjs';
import type { GiteaFixtures } from './gitea-fixtures';
import type { Auth } from './server';

// The steps Gitea's avatar tests (user, organization, repository) share. Gitea uploads its
// tests/integration/avatar.png; here a small PNG is drawn.

export function avatarPng(): string {
  const png = new PNG({ width: 16, height: 16 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([i % 256, 64, 128, 255], i);
  return PNG.sync.write(png).toString('base64');
}

/** A valid image (204, as Gitea 1.25's swagger says), a string that is no base64, a text that is no image. */
export async function avatarUploadSteps(g: GiteaFixtures, path: string, auth: Auth): Promise<void> {
  expect((await g.api(path, { method: 'POST', auth, json: { image: avatarPng() } })).status).toBe(204);
  expect((await g.api(path, { method: 'POST', auth, json: { image: 'Invalid' } })).status).toBe(400);
  const text = Buffer.from('# Integration tests\n\nNot a picture at all.\n').toString('base64');
  // deliberate: Gitea answers 500 to bytes that are no image; hearth refuses them as bad input (422).
  expect((await g.api(path, { method: 'POST', auth, json: { image: text } })).status).toBe(422);
}
