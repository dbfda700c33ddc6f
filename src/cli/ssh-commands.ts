import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load';
import type { Config } from '../config/schema';
import { inExecutable } from '../lib/sea-payload';
import { FRAME, frameReader } from '../lib/serv-frames';
import { internalSshToken } from '../services/git-transport/internal-token';

// `hearth serv` and `hearth keys`, for operators who keep the system sshd (Gitea's commands of
// the same names): sshd asks `keys` for the authorized_keys line of an offered key
// (AuthorizedKeysCommand), whose forced command is `serv key-N`. Both ask the running server
// (/api/internal/ssh), which does the work exactly as for its own SSH server. src/main.ts runs
// them without the rest of the CLI: sshd starts one of each per connection.

const PREFIX = 'hearth';

function fail(message: string): number {
  // As Gitea: an empty line on stdout, so the client reads the reason, not a protocol error.
  process.stdout.write('\n');
  process.stderr.write(`${PREFIX}: ${message}\n`);
  return 1;
}

/** The server's local address and the internal token, from the same configuration it runs with. */
function endpoint(config: Config): { base: string; token: string } {
  const { http_addr: addr, http_port: port, data_dir: dataDir } = config.server;
  const host = addr === '0.0.0.0' ? '127.0.0.1' : addr === '::' ? '::1' : addr;
  const secret = config.security.secret_key || fs.readFileSync(path.join(dataDir, 'secret_key'), 'utf8').trim();
  return { base: `http://${host.includes(':') ? `[${host}]` : host}:${port}/api/internal/ssh`, token: internalSshToken(secret) };
}

function request(url: string, opts: http.RequestOptions): http.ClientRequest {
  return http.request(url, { ...opts, headers: { ...opts.headers } });
}

/** Runs SSH_ORIGINAL_COMMAND for key-N through the server; resolves the command's exit code. */
export async function runServ(args: string[], configFile: string | null): Promise<number> {
  const id = /^key-(\d+)$/.exec(args[0] ?? '')?.[1];
  if (!id) return fail('Key ID format error');
  const config = loadConfig(configFile);
  const { base, token } = endpoint(config);
  return new Promise<number>((resolve) => {
    const req = request(`${base}/serv/${id}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'X-Hearth-Command': encodeURIComponent(process.env.SSH_ORIGINAL_COMMAND ?? ''),
        ...(process.env.GIT_PROTOCOL ? { 'X-Hearth-Git-Protocol': process.env.GIT_PROTOCOL } : {}),
        'Content-Type': 'application/octet-stream',
      },
    });
    req.on('error', (err) => resolve(fail(`cannot reach the hearth server at ${base}: ${err.message}`)));
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(fail(res.statusCode === 404 ? 'Key check failed' : `the server answered ${res.statusCode}`));
        return;
      }
      let code = 1;
      res.pipe(frameReader((kind, data, done) => {
        if (kind === FRAME.exit) { code = Number(data.toString()) || 0; return done(); }
        const out = kind === FRAME.stderr ? process.stderr : process.stdout;
        if (out.write(data)) done();
        else out.once('drain', done);
      })).on('finish', () => {
        process.stdin.unpipe(req);
        process.stdin.pause();
        resolve(code);
      });
    });
    // Headers now: git waits for the server's first words before it sends any.
    req.flushHeaders();
    process.stdin.pipe(req);
  });
}

/** Fills [server] ssh_authorized_keys_command_template for one key. */
export function forcedCommand(config: Config, keyId: number): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const app = inExecutable() ? quote(process.execPath) : `${quote(process.execPath)} ${quote(process.argv[1] ?? '')}`;
  let template = config.server.ssh_authorized_keys_command_template;
  if (!config.file) template = template.replace(/\s*--config[= ]\{config\}/, '');
  return template.replaceAll('{app_path}', app).replaceAll('{config}', quote(config.file ?? '')).replaceAll('{key_id}', String(keyId));
}

/** The authorized_keys line of the offered key (`keys -e git -u %u -t %t -k %k`); exit 1 when none. */
export async function runKeys(argv: string[], configFile: string | null): Promise<number> {
  const { values } = parseArgs({
    args: argv, allowPositionals: false, strict: true,
    options: {
      expected: { type: 'string', short: 'e', default: 'git' }, username: { type: 'string', short: 'u' },
      type: { type: 'string', short: 't' }, content: { type: 'string', short: 'k' },
    },
  });
  if (!values.username) return fail('no username provided (-u %u)');
  if (values.username !== values.expected) return 1;
  if (!values.content || !values.type) return fail('no key provided (-t %t -k %k)');
  const config = loadConfig(configFile);
  const { base, token } = endpoint(config);
  const content = `${values.type} ${values.content}`;
  // node:http, not fetch: fetch loads undici on first use, tens of milliseconds of every connection.
  const res = await new Promise<{ status: number; body: string } | Error>((resolve) => {
    request(`${base}/authorized-key?content=${encodeURIComponent(content)}`, { headers: { Authorization: `Bearer ${token}` } })
      .on('response', (r) => {
        let body = '';
        r.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      })
      .on('error', resolve)
      .end();
  });
  if (res instanceof Error) return fail(`cannot reach the hearth server at ${base}: ${res.message}`);
  if (res.status !== 200) return 1;
  const { key_id: keyId } = JSON.parse(res.body) as { key_id: number };
  const command = forcedCommand(config, keyId).replace(/[\\"]/g, (c) => `\\${c}`);
  process.stdout.write(`# hearth public key\ncommand="${command}",no-port-forwarding,no-X11-forwarding,no-agent-forwarding,no-pty,no-user-rc,restrict ${content}\n`);
  return 0;
}

/** `hearth [--config FILE] serv|keys ...` from src/main.ts: the command's words and the configuration file. */
export function splitSshCommandLine(argv: string[]): { command: string; rest: string[]; config: string | null } | null {
  let config: string | null = null;
  const rest: string[] = [];
  let command = '';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = /^(?:--config|-c)=(.*)$/.exec(a);
    if (eq) config = eq[1]!;
    else if (a === '--config' || a === '-c') config = argv[++i] ?? null;
    else if (!command) command = a;
    else rest.push(a);
  }
  return command === 'serv' || command === 'keys' ? { command, rest, config } : null;
}

export async function runSshCommand(argv: string[]): Promise<void> {
  const parsed = splitSshCommandLine(argv)!;
  let code: number;
  try {
    code = parsed.command === 'serv' ? await runServ(parsed.rest, parsed.config) : await runKeys(parsed.rest, parsed.config);
  } catch (err) {
    code = fail((err as Error).message);
  }
  // Exit once the output is flushed: the request to the server may still hold stdin open.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

