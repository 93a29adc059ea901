#!/usr/bin/env node
// The `bindery` command: runs the TypeScript CLI through tsx, so it works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../main/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
