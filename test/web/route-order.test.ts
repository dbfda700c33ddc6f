import { match } from 'path-to-regexp';
import { describe, expect, it } from 'vitest';
import { webGroups } from '../../src/routes/web/index';

// The web table mounts its groups in order, and Express gives a request to the first route that
// matches: a route whose path an earlier one also matches is never reached (as
// `/org/{org}/settings/actions/{kind}` once took `/org/{org}/settings/actions/runners`). Each
// route's own sample URL must reach that route first.

/** A URL the route's path matches: each parameter named after itself, a wildcard two segments. */
const sample = (path: string) => path.replace(/\*(\w+)/g, 'wild-$1/more').replace(/:(\w+)/g, 'some-$1');

describe('the web route table', () => {
  it('reaches every route: no earlier route of the same method takes its sample URL', () => {
    const routes = webGroups.flatMap((g) => g.routes.map((r) => ({ ...r, group: g.name })));
    const shadowed: string[] = [];
    routes.forEach((r, i) => {
      const url = sample(r.path);
      const first = routes.findIndex((o) => o.method === r.method && match(o.path, { decode: false })(url));
      if (first !== i) shadowed.push(`${r.method.toUpperCase()} ${r.path} (${r.group}) is taken by ${routes[first]?.path} (${routes[first]?.group})`);
    });
    expect(shadowed).toEqual([]);
  });
});
