#!/usr/bin/env node
// Runs the compiled server; `npm start` (or `npm run build`) compiles it first.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('openbid is not built yet: run `npm run build` (npm start does it for you)\n');
  process.exit(1);
}
await import(entry.href);
