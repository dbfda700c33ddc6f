// The web pages against their API twins, on dist/hearth, in one run: server time (loopback
// request to last byte, sequential, after a warm-up) of each page beside the API request(s)
// returning the same data, p50 and p95; a 2,000-line file highlighted warm (cached by blob) and
// cold (a blob never shown before); then what a browser transfers: page, CSS and JS brotli
// bytes and the requests of a cold and a warm visit. Targets (issue 28): each page within 1.5x
// of its twin warm, p95 within 3x its median, CSS <= 12 KB and JS <= 8 KB brotli, <= 3 requests
// cold and 1 warm (plus avatars), a typical page <= 30 KB transferred.
// Usage: node bench/web.mjs [requests=200]   (build first: npm run build)
import { benchInstance, ms, pct, timed, wire } from './web-lib.mjs';

const N = Number(process.argv[2] ?? 200);
const COLD = 20;

/** A plausible 2,000-line source file; `seed` makes each one a different blob. */
function bigFile(seed) {
  const lines = [`// generated file ${seed}`];
  for (let i = 1; lines.length < 2000; i++) {
    lines.push(`/** Adds ${i} to the value, as the ${i}th step does. */`, `export function step${i}(value: number): number {`,
      `  const next = value + ${i}; // "${seed}" keeps the blob apart`, '  if (next % 7 === 0) return next * 2;', '  return next;', '}', '');
  }
  return `${lines.slice(0, 2000).join('\n')}\n`;
}

const b = await benchInstance('web');
try {
  const { api, h } = b;
  if (!b.built) console.log('(dist/hearth is not built: measuring the source through tsx)');
  await api('user/repos', { name: 'bench', auto_init: true, license: 'MIT', description: 'The bench repository' });
  const readme = `# bench\n\n${'Some **words** about the project, with a [link](docs/a.md) and `code`.\n\n'.repeat(30)}`;
  const files = [
    { operation: 'update', path: 'README.md', content: readme },
    ...Array.from({ length: 20 }, (_, i) => ({ operation: 'create', path: `src/mod${i}.ts`, content: `export const m${i} = ${i};\n` })),
    ...Array.from({ length: 8 }, (_, i) => ({ operation: 'create', path: `docs/d${i}.md`, content: `# Doc ${i}\n` })),
    { operation: 'create', path: 'big.ts', content: bigFile('warm') },
    ...Array.from({ length: COLD }, (_, i) => ({ operation: 'create', path: `cold/c${i}.ts`, content: bigFile(`cold-${i}`) })),
    ...Array.from({ length: COLD }, (_, i) => ({ operation: 'create', path: `cold-api/c${i}.ts`, content: bigFile(`cold-api-${i}`) })),
  ];
  const sha = (await api('repos/root/bench/contents/README.md', undefined, 'GET')).sha;
  await api('repos/root/bench/contents', {
    message: 'Fill the bench repository',
    files: files.map((f) => ({ ...f, content: Buffer.from(f.content).toString('base64'), ...(f.path === 'README.md' ? { sha } : {}) })),
  });
  await api('repos/root/bench/topics', { topics: ['bench', 'web'] }, 'PUT').catch(() => undefined);
  await api('repos/root/bench/releases', { tag_name: 'v1', name: 'First' });

  const br = { 'Accept-Encoding': 'br, gzip' };
  const page = (p) => `${h.base}root/bench${p}`;
  const twin = (p) => `${h.base}api/v1/repos/root/bench${p}`;
  const rows = [
    ['repository home', [page('')], [twin(''), twin('/contents'), twin('/contents/README.md')]],
    ['file page (small)', [page('/src/branch/main/src/mod1.ts')], [twin('/contents/src/mod1.ts')]],
    ['2,000-line file, warm', [page('/src/branch/main/big.ts')], [twin('/contents/big.ts')]],
    ['directory page', [page('/src/branch/main/src')], [twin('/contents/src')]],
  ];
  console.log(`${N} sequential requests each after a warm-up, ${b.label}, pages with Accept-Encoding: br, API twins plain JSON`);
  await b.compare(rows, { runs: N, pageHeaders: br, twinHeaders: {}, width: 24 });

  // Cold: each blob shown for the first time (highlighted off the request thread, then cached).
  const cold = [];
  let coloured = 0;
  for (let i = 0; i < COLD; i++) {
    const r = await timed(page(`/src/branch/main/cold/c${i}.ts`), br);
    cold.push(r.took);
    if (r.body.includes('hljs-')) coloured++;
  }
  const coldApi = [];
  for (let i = 0; i < COLD; i++) coldApi.push((await timed(twin(`/contents/cold-api/c${i}.ts`), {})).took);
  console.log(`2,000-line file, cold: p50 ${ms(pct(cold, 0.5))} ms, p95 ${ms(pct(cold, 0.95))} ms (first ${ms(cold[0])} ms: the highlighter's thread starts), ${coloured}/${COLD} came highlighted | twin p50 ${ms(pct(coldApi, 0.5))} ms | ratio ${(pct(cold, 0.5) / pct(coldApi, 0.5)).toFixed(2)}x (target <= 100 ms)`);

  // What a browser transfers: the page, then the assets it links (cached for a year: a warm visit asks for none).
  console.log('bytes on the wire (br)'.padEnd(24), '  page     CSS     JS | total cold | requests cold / warm (+ avatars)');
  for (const [name, p] of [['repository home', ''], ['file page (small)', '/src/branch/main/src/mod1.ts'], ['2,000-line file', '/src/branch/main/big.ts'], ['history', '/commits/branch/main']]) {
    const html = await (await fetch(page(p))).text();
    const assets = [...html.matchAll(/<(?:link rel="stylesheet"|script) [^>]*(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
    const images = [...html.matchAll(/<img [^>]*src="([^"]+)"/g)].map((m) => m[1]);
    const avatars = images.filter((u) => /avatar/.test(u)).length;
    const blocking = [...html.matchAll(/<script [^>]*>/g)].filter((m) => !/\bdefer\b|\basync\b/.test(m[0])).length;
    const got = await wire(page(p));
    const sizes = [];
    for (const a of assets) sizes.push((await wire(a)).bytes);
    const [css, js] = [sizes[0] ?? 0, sizes[1] ?? 0];
    const total = got.bytes + sizes.reduce((a, b) => a + b, 0);
    const kb = (n) => (n / 1024).toFixed(1).padStart(6);
    console.log(name.padEnd(24), `${kb(got.bytes)} ${kb(css)} ${kb(js)} | ${kb(total)} KB | ${1 + assets.length + images.length - avatars} / 1 (+${avatars})${blocking ? `, ${blocking} render-blocking script(s)` : ''} [${got.encoding}, ${kb(html.length)} KB of HTML]`);
  }
  console.log('targets: CSS <= 12 KB, JS <= 8 KB, a typical page <= 30 KB, <= 3 requests cold and 1 warm, no render-blocking script');
} finally {
  await b.close();
}
