#!/usr/bin/env node
// A `node-gyp` for npm's install scripts (better-sqlite3 runs `node-gyp rebuild`): its bin in
// node_modules/.bin comes before npm's own on the scripts' PATH. It builds against the headers
// beside the Node that runs the install instead of downloading them from nodejs.org, so `npm ci`
// needs nothing beyond the npm registry. Debian's Node, the official tarballs and Homebrew keep
// them at <prefix>/include/node, two levels above the node binary. An explicit nodedir (the
// environment or npm's configuration) still wins.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const prefix = path.resolve(path.dirname(process.execPath), '..');
const headers = path.join(prefix, 'include', 'node');
if (!process.env.npm_config_nodedir) {
  if (fs.existsSync(path.join(headers, 'common.gypi'))) process.env.npm_config_nodedir = prefix;
  else process.stderr.write(`node-gyp-local: no Node headers at ${headers}; node-gyp will try to download them\n`);
}

// npm hands its own node-gyp to every script it runs; outside npm, the one installed with Node.
const real = process.env.npm_config_node_gyp
  || path.join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
require(real);
