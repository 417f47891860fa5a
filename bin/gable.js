#!/usr/bin/env node
// The `gable` command. TypeScript sources are loaded through tsx so the CLI is always the code in src/.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
