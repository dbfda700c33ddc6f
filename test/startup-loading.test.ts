import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

// What a start evaluates before it answers: the modules src/main.ts reaches through static
// imports, with the CLI it loads at once (src/cli/program.ts). The bundle wraps a module reached
// only through import() in an initialiser that runs on first use, so everything else here stays
// unevaluated until a request, an event, a job or a command needs it (README "The single
// executable"; bench/startup measures what that saves). A static import that pulls one of these
// areas back into the start fails here.

const ROOT = path.join(__dirname, '..');
let reached: string[] = [];
let reachedPackages: string[] = [];
let inputs: Metafile['inputs'] = {};

/** The src/ modules (and node_modules files) reachable from the start through static imports only. */
async function startModules(): Promise<{ src: string[]; packages: string[]; inputs: Metafile['inputs'] }> {
  const result = await build({
    entryPoints: [path.join(ROOT, 'src/main.ts')], absWorkingDir: ROOT, bundle: true, platform: 'node', format: 'cjs',
    write: false, metafile: true, outfile: 'out.cjs', logLevel: 'silent', external: ['better-sqlite3', 'cpu-features', '*.node'],
  });
  const { inputs } = result.metafile;
  const seen = new Set<string>();
  const todo = ['src/main.ts', 'src/cli/program.ts'];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of inputs[file]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) todo.push(i.path);
  }
  return { src: [...seen].filter((f) => f.startsWith('src/')).sort(), packages: [...seen].filter((f) => f.startsWith('node_modules/')), inputs };
}

/** Every file `from` reaches through imports of any kind (what its own packed bundle holds). */
function closureOf(from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [from];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of inputs[file]?.imports ?? []) if (!i.external) todo.push(i.path);
  }
  return seen;
}

/** The files outside `closure` that import one inside it, other than its entry. */
function doorsInto(entry: string, closure: Set<string>): string[] {
  return Object.entries(inputs).filter(([f, i]) => !closure.has(f) && i.imports.some((x) => x.path !== entry && closure.has(x.path)))
    .map(([f]) => f);
}

describe('what a start evaluates', () => {
  beforeAll(async () => { ({ src: reached, packages: reachedPackages, inputs } = await startModules()); }, 60_000);

  it('reaches the route table, not the API handlers or the guards they run', () => {
    expect(reached).toContain('src/routes/api/v1/index.ts');
    const handlers = reached.filter((f) => f.startsWith('src/routes/api/v1/')
      && !/(-routes|route-chains|index|audit-log-query)\.ts$/.test(f));
    expect(handlers).toEqual([]);
    expect(reached.filter((f) => /src\/routes\/middleware\/(guards|repo-guards|org-guards)\.ts$/.test(f))).toEqual([]);
  });

  it('leaves the web pages, git and LFS over HTTP, the registries, artifacts and avatars to their first request', () => {
    const eager = reached.filter((f) => /^src\/routes\/(web|packages|oauth2)\//.test(f)
      || /^src\/routes\/(git-http|lfs|actions-artifacts|actions-artifacts-v3|actions-runner|avatar|internal-ssh|swagger-doc)\.ts$/.test(f));
    expect(eager).toEqual([]);
  });

  it('leaves the event subscribers, job kinds, cron tasks and crash recoveries to their first use', () => {
    const eager = reached.filter((f) => /^src\/services\/(webhook|mirror|security|notification|activity|doctor|packages|lfs)\//.test(f)
      || /^src\/services\/(actions\/triggers|pull\/subscribers|issue\/closing-keywords|repo\/licenses|recovery\/handlers)\.ts$/.test(f)
      || (/^src\/services\/cron\/tasks\//.test(f) && !f.endsWith('/index.ts')));
    expect(eager).toEqual([]);
  });

  it('leaves the admin commands\' services to the command that runs', () => {
    expect(reached).toContain('src/cli/admin.ts');
    expect(reached.filter((f) => /^src\/(cli\/admin-user-actions|services\/user\/admin-users|services\/security\/import|services\/admin\/badges)\.ts$/.test(f)))
      .toEqual([]);
  });

  it('leaves PostgreSQL (pg and src/db/postgres) to a start whose driver is postgres', () => {
    expect(reachedPackages.length).toBeGreaterThan(0);
    expect(reached).toContain('src/db/connect.ts');
    expect(reached.filter((f) => f.startsWith('src/db/postgres/'))).toEqual([]);
    expect(reachedPackages.filter((f) => /^node_modules\/(pg|pg-[a-z-]+|pgpass)\//.test(f))).toEqual([]);
  });

  it('leaves the S3 store and the AWS SDK to a start whose [storage] type is s3', () => {
    expect(reached).toContain('src/lib/blob-storage/local.ts');
    expect(reached).not.toContain('src/lib/blob-storage/s3.ts');
    expect(reachedPackages.filter((f) => /^node_modules\/@(aws-sdk|smithy|aws-crypto)\//.test(f))).toEqual([]);
  });

  it('leaves the runner protocol (connect, protobuf-es, the generated code) to a runner\'s request, the embedded runner or `hearth runner`', () => {
    expect(reached).not.toContain('src/lib/runner-protocol.ts');
    expect(reached.filter((f) => f.startsWith('src/lib/actions-proto/'))).toEqual([]);
    expect(reachedPackages.filter((f) => /^node_modules\/@(bufbuild|connectrpc)\//.test(f))).toEqual([]);
  });

  it('packs each module of LAZY_SOURCES apart with all it imports: nothing else imports what its bundle holds', async () => {
    // The executable compiles each as its own bundle on first use (scripts/build-lazy-libraries.mjs):
    // a file it holds that the application imports too would be a second copy, resident from the
    // start (and, for protobuf-es, a second set of classes connect's messages do not match).
    const script = path.join(ROOT, 'scripts/build-lazy-libraries.mjs');
    const { LAZY_SOURCES } = (await import(script)) as { LAZY_SOURCES: Record<string, string> };
    expect(Object.keys(LAZY_SOURCES)).toEqual(expect.arrayContaining(['aws-sdk', 'runner-protocol', 'postgres-baseline']));
    for (const [name, file] of Object.entries(LAZY_SOURCES)) {
      const closure = closureOf(file);
      expect(closure.has(file), name).toBe(true);
      expect(reached, name).not.toContain(file);
      // Modules of hearth's in a packed bundle would be copies of the application's.
      expect([...closure].filter((f) => f.startsWith('src/') && f !== file && !f.startsWith('src/lib/actions-proto/')), name).toEqual([]);
      expect(doorsInto(file, closure), name).toEqual([]);
    }
    expect([...closureOf(LAZY_SOURCES['runner-protocol']!)]).toEqual(expect.arrayContaining([
      'src/lib/actions-proto/runner/v1/messages_pb.ts', expect.stringMatching(/^node_modules\/@connectrpc\/connect-node\//),
    ]));
  });

  it('reaches none of the libraries packed apart (LAZY_LIBRARIES): the executable would compile each at every start', async () => {
    const script = path.join(ROOT, 'scripts/build-lazy-libraries.mjs');
    const { LAZY_LIBRARIES, LAZY_SOURCES } = (await import(script)) as { LAZY_LIBRARIES: string[]; LAZY_SOURCES: Record<string, string> };
    expect(LAZY_LIBRARIES).toEqual(expect.arrayContaining(['yazl', 'pg', 'aws-sdk', 'runner-protocol']));
    const packages = LAZY_LIBRARIES.filter((n) => !LAZY_SOURCES[n]).map((n) => n.split('/').slice(0, n.startsWith('@') ? 2 : 1).join('/'));
    expect(reachedPackages.filter((f) => packages.some((p) => f.startsWith(`node_modules/${p}/`)))).toEqual([]);
  });

  it('stays a small part of the sources (a new eager import of a whole area shows here first)', () => {
    // 449 modules before the areas above loaded lazily; 163 after.
    expect(reached.length).toBeLessThan(200);
  });
});
