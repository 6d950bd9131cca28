#!/usr/bin/env node
// The CLI as one bundle (dist/bundle/cli.js, built by `npm run build` from dist/cli/main.js):
// Node loads a few modules instead of a few hundred at every start.
import { main } from '../dist/bundle/cli.js';

process.exitCode = await main(process.argv.slice(2));
