// `node --import ./test/support/record-imports.js …`: appends every module URL the process loads (ESM imports and
// the require()s of CommonJS packages) to the file named by RECORD_IMPORTS, one a line. The CLI's help test reads
// it to prove that `gable --help` loads nothing but the command table.
import { register } from 'node:module';

const file = process.env.RECORD_IMPORTS;
if (file) register('./record-imports.hooks.js', { parentURL: import.meta.url, data: { file } });
