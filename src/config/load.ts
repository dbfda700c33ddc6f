import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import * as z from 'zod';
import { configSchema, type Config, type RawConfig } from './schema';

export class ConfigError extends Error {}

export type ConfigOverrides = { port?: number; dataDir?: string };

const ENV_PREFIX = 'HEARTH__';
/** Sections made of tables, one per task: HEARTH__CRON__<TASK>__<KEY>. */
const TABLE_SECTIONS = new Set(['cron']);

/**
 * HEARTH__SECTION__KEY=value, typed after the key's default (number, boolean, list or string).
 * Returns which variable set each key (`server.http_port` -> its name), so that a value the
 * schema refuses is reported by the variable's name, not only by the key's.
 */
export function applyEnv(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): Map<string, string> {
  const sources = new Map<string, string>();
  let defaults: Record<string, Record<string, unknown>> | undefined;
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || value === undefined) continue;
    defaults ??= configSchema.parse({}, { jitless: true }) as Record<string, Record<string, unknown>>;
    const [sectionName, key, sub, ...rest] = name.slice(ENV_PREFIX.length).toLowerCase().split('__');
    // A sub-table with defaults ([repository.signing]) takes HEARTH__REPOSITORY__SIGNING__KEY.
    const subDefaults = sub !== undefined ? defaults[sectionName ?? '']?.[key ?? ''] : undefined;
    const subTable = !!subDefaults && typeof subDefaults === 'object' && !Array.isArray(subDefaults);
    const nested = TABLE_SECTIONS.has(sectionName ?? '') || subTable;
    if (!sectionName || !key || rest.length || (nested ? !sub : sub !== undefined)) {
      throw new ConfigError(`${name}: expected HEARTH__SECTION__KEY (HEARTH__CRON__TASK__KEY for a [cron.<task>] key)`);
    }
    const current = (raw[sectionName] ??= {}) as Record<string, unknown>;
    sources.set([sectionName, key, ...(nested ? [sub!] : [])].join('.'), name);
    if (!nested) current[key] = coerceEnv(value, defaults[sectionName]?.[key]);
    else if (subTable) ((current[key] ??= {}) as Record<string, unknown>)[sub!] = coerceEnv(value, (subDefaults as Record<string, unknown>)[sub!]);
    else ((current[key] ??= {}) as Record<string, unknown>)[sub!] = coerceEnv(value, tableKeyKind(sectionName, key, sub!));
  }
  return sources;
}

/**
 * A table key has no default to go by (the tasks own them): a stand-in value of the type the
 * schema declares for it, so the value is typed as for any other key.
 */
function tableKeyKind(section: string, table: string, key: string): unknown {
  const sectionSchema = (configSchema.shape as Record<string, z.ZodType>)[section];
  let t: unknown = sectionSchema instanceof z.ZodPrefault ? sectionSchema.unwrap() : sectionSchema;
  for (const name of [table, key]) {
    if (t instanceof z.ZodOptional) t = t.unwrap();
    t = t instanceof z.ZodObject ? (t.shape as Record<string, z.ZodType>)[name] : undefined;
  }
  if (t instanceof z.ZodOptional) t = t.unwrap();
  return t instanceof z.ZodNumber ? 0 : t instanceof z.ZodBoolean ? false : t instanceof z.ZodArray ? [] : undefined;
}

function coerceEnv(value: string, like: unknown): unknown {
  if (typeof like === 'number' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (typeof like === 'boolean' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (Array.isArray(like)) return value.split(',').map((s) => s.trim()).filter(Boolean);
  return value;
}

function readFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`${file}: invalid TOML: ${(err as Error).message}`);
  }
}

export function validateConfig(raw: unknown, source = 'config', fromEnv: ReadonlyMap<string, string> = new Map()): RawConfig {
  // Without zod's JIT: on the first parse of each object schema it compiles a parser for it,
  // worth it for request bodies parsed again and again, not for the ~30 sections of the
  // configuration, read once: 8-10 ms of every start, against ~3 ms without.
  const result = configSchema.safeParse(raw, { jitless: true });
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const keys = 'keys' in issue && Array.isArray(issue.keys) ? issue.keys : [];
    const at = [...issue.path, ...(keys.length === 1 ? keys : [])].join('.');
    const variable = fromEnv.get(at);
    return `${at || '(root)'}${variable ? ` (set by ${variable})` : ''}: ${issue.message}`;
  });
  // One problem, one line (what a start prints before exiting); several, one indented line each.
  throw new ConfigError(`invalid ${source}:${lines.length === 1 ? ` ${lines[0]}` : lines.map((l) => `\n  ${l}`).join('')}`);
}

/** Reads the file (optional), applies the environment and CLI overrides, validates and resolves paths. */
export function loadConfig(file?: string | null, overrides: ConfigOverrides = {}, env = process.env): Config {
  const configFile = file ?? env.HEARTH_CONFIG ?? null;
  const raw: Record<string, unknown> = configFile ? readFile(configFile) : {};
  const fromEnv = applyEnv(raw, env);
  const server = (raw.server ??= {}) as Record<string, unknown>;
  if (overrides.port !== undefined) server.http_port = overrides.port;
  if (overrides.dataDir !== undefined) server.data_dir = overrides.dataDir;
  const cfg = validateConfig(raw, configFile ?? 'config', fromEnv);
  return resolveConfig(cfg, configFile);
}

export function resolveConfig(cfg: RawConfig, file: string | null): Config {
  // Relative paths in a file are relative to the working directory, as with Gitea's work path.
  const dataDir = path.resolve(cfg.server.data_dir);
  const rootUrl = cfg.server.root_url || deriveRootUrl(cfg.server.http_addr, cfg.server.http_port);
  return {
    ...cfg,
    server: { ...cfg.server, data_dir: dataDir, root_url: rootUrl.endsWith('/') ? rootUrl : `${rootUrl}/` },
    database: { ...cfg.database, path: path.resolve(dataDir, cfg.database.path || 'hearth.db') },
    repository: { ...cfg.repository, root: path.resolve(dataDir, cfg.repository.root || 'repositories') },
    file,
    rootUrlDerived: !cfg.server.root_url,
  };
}

export function deriveRootUrl(addr: string, port: number): string {
  const host = addr === '0.0.0.0' || addr === '::' ? 'localhost' : addr.includes(':') ? `[${addr}]` : addr;
  return `http://${host}:${port}/`;
}
