// bin/gable.js runs the compiled dist/ only when it is the build of the src/ beside it: a missing or stale build
// stops with one line naming `npm run build` (exit 2). Run on a copy of bin/ and scripts/ in a tree of its own, so
// the real src/ and dist/ are never touched.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
let root = '';

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'gable-build-'));
  for (const dir of ['bin', 'scripts', 'src/modules', 'dist']) mkdirSync(join(root, dir), { recursive: true });
  copyFileSync('bin/gable.js', join(root, 'bin/gable.js'));
  copyFileSync('scripts/build-state.js', join(root, 'scripts/build-state.js'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}');
  writeFileSync(join(root, 'src/modules/thing.ts'), 'export {};\n');
  writeFileSync(join(root, 'dist/main.js'), "console.log('compiled main ran');\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Builds "at" `builtAt` and dates the source file at `sourceAt` (seconds since the epoch). */
function dates(builtAt: number, sourceAt: number, file = 'src/modules/thing.ts'): void {
  writeFileSync(join(root, 'dist/.build-stamp'), String(builtAt * 1000));
  utimesSync(join(root, file), sourceAt, sourceAt);
}

async function gable(): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(root, 'bin/gable.js'), '--help']);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('bin/gable.js and the build in dist/', () => {
  it('runs the compiled code when the build is newer than every source', async () => {
    dates(2_000_000_000, 1_900_000_000);
    expect(await gable()).toEqual({ code: 0, stdout: 'compiled main ran\n', stderr: '' });
  });

  it('refuses a build older than a source, in one line naming npm run build', async () => {
    dates(1_900_000_000, 2_000_000_000);
    const { code, stdout, stderr } = await gable();
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('npm run build');
  });

  it('refuses a missing build, in one line naming npm run build', async () => {
    rmSync(join(root, 'dist'), { recursive: true });
    const { code, stderr } = await gable();
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('npm run build');
  });

  it('ignores tests edited after the build: they are not compiled', async () => {
    writeFileSync(join(root, 'src/modules/thing.test.ts'), 'export {};\n');
    dates(2_000_000_000, 1_900_000_000);
    utimesSync(join(root, 'src/modules/thing.test.ts'), 2_100_000_000, 2_100_000_000);
    expect((await gable()).code).toBe(0);
  });
});
