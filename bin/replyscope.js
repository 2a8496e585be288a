#!/usr/bin/env node
// The CLI is written in TypeScript; tsx compiles it on the fly so the repo needs no separate CLI build step.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');
