#!/usr/bin/env node
// Runs the TypeScript CLI in place, so `npx loupe` works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
