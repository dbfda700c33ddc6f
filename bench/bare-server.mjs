// The baseline of bench/api: express 5 + better-sqlite3 answering the same requests from an
// copy of hearth's database (same rows), with prepared statements and smaller JSON,
// no auth checks beyond reading the user. Usage: node bench/bare-server.mjs <db-file> <repo-dir> <port>
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import express from 'express';

const [file, repoDir, port] = process.argv.slice(2);
// A copy of the rows (writes of the POST case must not meet hearth's own on one file).
const copy = `${file}.bare`;
await new Database(file, { readonly: true }).backup(copy);
const db = new Database(copy);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
const run = promisify(execFile);
const q = {
  repo: db.prepare('SELECT r.*, u.name AS owner_login FROM repository r JOIN user u ON u.id = r.owner_id WHERE u.lower_name = ? AND r.lower_name = ?'),
  issues: db.prepare('SELECT i.*, u.name AS poster FROM issue i JOIN user u ON u.id = i.poster_id WHERE i.repo_id = ? AND i.is_pull = 0 AND i.is_closed = 0 ORDER BY i.created_unix DESC LIMIT 50'),
  user: db.prepare('SELECT id, name, full_name, email, created_unix FROM user WHERE lower_name = ?'),
  next: db.prepare('SELECT COALESCE(MAX("index"), 0) + 1 AS n FROM issue WHERE repo_id = ?'),
  insert: db.prepare('INSERT INTO issue (repo_id, "index", poster_id, title, content, created_unix, updated_unix) VALUES (?, ?, ?, ?, ?, ?, ?)'),
};
const whoOf = (req) => Buffer.from((req.get('authorization') ?? '').replace(/^Basic /, ''), 'base64').toString().split(':')[0];
const app = express();
app.use(express.json());
app.get('/api/v1/repos/:o/:r', (req, res) => res.json(q.repo.get(req.params.o.toLowerCase(), req.params.r.toLowerCase())));
app.get('/api/v1/repos/:o/:r/issues', (req, res) => {
  const repo = q.repo.get(req.params.o.toLowerCase(), req.params.r.toLowerCase());
  res.json(q.issues.all(repo.id).map((i) => ({ id: i.id, number: i.index, title: i.title, body: i.content, user: { login: i.poster }, state: 'open' })));
});
app.get('/api/v1/repos/:o/:r/contents/:file', async (req, res) => {
  const { stdout } = await run('git', ['--git-dir', repoDir, 'cat-file', 'blob', `HEAD:${req.params.file}`], { encoding: 'buffer' });
  res.json({ name: req.params.file, path: req.params.file, type: 'file', size: stdout.length, encoding: 'base64', content: stdout.toString('base64') });
});
app.get('/api/v1/user', (req, res) => res.json(q.user.get(whoOf(req).toLowerCase())));
app.post('/api/v1/repos/:o/:r/issues', (req, res) => {
  const repo = q.repo.get(req.params.o.toLowerCase(), req.params.r.toLowerCase());
  const user = q.user.get(whoOf(req).toLowerCase());
  const now = Math.floor(Date.now() / 1000);
  const n = q.next.get(repo.id).n;
  const r = q.insert.run(repo.id, n, user.id, req.body.title, req.body.body ?? '', now, now);
  res.status(201).json({ id: Number(r.lastInsertRowid), number: n, title: req.body.title });
});
app.listen(Number(port), '127.0.0.1', () => console.log('ready'));
