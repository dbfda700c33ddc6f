import { match } from 'path-to-regexp';
import { describe, expect, it } from 'vitest';
import { webGroups } from '../../src/routes/web/index';
import { literalSegment, routeIndex } from '../../src/routes/web/route-index';

// The index of the web table (route-index.ts) may leave a route out of a request's walk only
// when that route could not match it: every route whose pattern matches a URL must be among the
// URL's candidates, in the table's order, for the table's own URLs and for odd ones.

const routes = webGroups.flatMap((g) => g.routes);
const byMethod = (method: 'get' | 'post') => routes.filter((r) => r.method === method).map((r) => r.path);

/** URLs of a route's shape: parameters named after themselves, a wildcard two segments. */
const sample = (path: string) => path.replace(/\*(\w+)/g, 'wild-$1/more').replace(/:(\w+)/g, 'some-$1');
/** The same URL as other clients send it: upper case, a trailing slash, a segment more, a parameter that is a literal elsewhere. */
const variants = (url: string) => [
  url, url.toUpperCase(), `${url}/`, `${url}/extra`, url.replace(/some-\w+/, 'settings'), url.replace(/some-\w+/g, 'user'), url.replace(/\/[^/]+$/, ''),
];

describe('the web routes\' index', () => {
  it('keys on literal segments only', () => {
    expect(literalSegment('/:owner/:repo/settings/hooks', 0)).toBeNull();
    expect(literalSegment('/:owner/:repo/settings/hooks', 2)).toBe('settings');
    expect(literalSegment('/user/settings', 0)).toBe('user');
    expect(literalSegment('/user/settings', 2)).toBeNull();
    expect(literalSegment('/:owner/:repo/releases/download/*tag/:name', 2)).toBe('releases');
    expect(literalSegment('/:owner/*rest/x', 2)).toBeNull();
    expect(literalSegment('/Org/:org', 0)).toBe('org');
  });

  for (const method of ['get', 'post'] as const) {
    it(`leaves out no ${method.toUpperCase()} route that matches a URL, and keeps the table's order`, () => {
      const paths = byMethod(method);
      const matchers = paths.map((p) => match(p, { decode: false }));
      const candidates = routeIndex(paths);
      const missed: string[] = [];
      const urls = [...paths.flatMap((p) => variants(sample(p))), '/', '/a', '/a/b', '/a/b/c/d/e/f', '//x', '/-/admin/', '/Explore/Repos', '/a/b/SETTINGS/hooks'];
      for (const url of urls) {
        const list = candidates(url);
        expect([...list].sort((a, b) => a - b)).toEqual(list);
        matchers.forEach((m, i) => { if (m(url) && !list.includes(i)) missed.push(`${url} lost ${paths[i]}`); });
      }
      expect(missed).toEqual([]);
    });
  }

  it('narrows a repository page\'s walk to its own area', () => {
    const paths = byMethod('get');
    const list = candidates(paths, '/alice/project/settings');
    expect(list.map((i) => paths[i])).toContain('/:owner/:repo/settings');
    // The whole table held 150 and more GET routes when this was written.
    expect(paths.length).toBeGreaterThan(100);
    expect(list.length).toBeLessThan(40);
  });
});

function candidates(paths: string[], url: string): readonly number[] {
  return routeIndex(paths)(url);
}
