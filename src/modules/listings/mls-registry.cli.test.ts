// `gable admin mls set|list`, parsed by commander in-process on the test database; the demo seed's MLS row.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runAdminCommand } from '../../../test/helpers/cli.js';
import { seedDemoWorld } from '../demo/demo-seed.js';
import { DEFAULT_SEED_MLS } from './listings.seed.js';
import { registerMlsCommands } from './mls-registry.cli.js';
import { listMlsRegistry } from './mls-registry.repository.js';

describe('gable admin mls', () => {
  const t = useTestApp();

  const run = (...args: string[]) => runAdminCommand(registerMlsCommands, t.deps, ...args);

  it('sets an MLS (disclaimer verbatim, {{currentYear}} kept), changes only what is given, and lists it', async () => {
    const disclaimer = 'Listings © {{currentYear}} NTREIS. Information deemed reliable but not guaranteed.';
    const created = await run(
      'mls',
      'set',
      'NTREIS',
      '--name',
      'North Texas MLS',
      '--disclaimer',
      disclaimer,
      '--logo-url',
      'https://ntreis.example/logo.png',
      '--json',
    );
    expect(created.exitCode).toBeUndefined();
    expect(JSON.parse(created.out)).toEqual({
      mls: 'NTREIS',
      name: 'North Texas MLS',
      disclaimer,
      logo_url: 'https://ntreis.example/logo.png',
    });

    const renamed = await run('mls', 'set', 'NTREIS', '--name', 'NTREIS');
    expect(renamed.out).toBe('set MLS NTREIS "NTREIS", with a disclaimer, logo https://ntreis.example/logo.png');
    const cleared = JSON.parse((await run('mls', 'set', 'NTREIS', '--logo-url', '', '--json')).out);
    expect(cleared).toEqual({ mls: 'NTREIS', name: 'NTREIS', disclaimer, logo_url: null });

    const listed = JSON.parse((await run('mls', 'list', '--json')).out) as { mls: string }[];
    expect(listed.find((row) => row.mls === 'NTREIS')).toEqual(cleared);
    expect((await run('mls', 'list')).out).toContain('NTREIS  NTREIS  (disclaimer)');
  });

  it('explains operator mistakes, exits 1 and writes nothing', async () => {
    const before = await listMlsRegistry(t.deps.db);
    expect(await run('mls', 'set', 'NEWMLS', '--disclaimer', 'x')).toMatchObject({
      exitCode: 1,
      err: 'error: name is required for an MLS not in the registry yet (NEWMLS)',
    });
    expect(await run('mls', 'set', 'NEWMLS', '--name', 'New', '--logo-url', 'javascript:alert(1)')).toMatchObject({
      exitCode: 1,
      err: expect.stringContaining('logo_url must be an http(s) URL'),
    });
    expect(await run('mls', 'set', 'NEWMLS', '--name', 'New', '--logo-url', 'not a url')).toMatchObject({
      exitCode: 1,
    });
    expect(await run('mls', 'set', 'bad mls!', '--name', 'x')).toMatchObject({
      exitCode: 1,
      err: expect.stringContaining('mls must be'),
    });
    expect(await run('mls', 'set', 'NEWMLS', '--name', '  ')).toMatchObject({
      exitCode: 1,
      err: expect.stringContaining('name must be'),
    });
    expect(await run('mls', 'set', 'NEWMLS')).toMatchObject({
      exitCode: 1,
      err: expect.stringContaining('nothing to set'),
    });
    expect(await listMlsRegistry(t.deps.db)).toEqual(before);
  });

  it('the demo seed registers the demo MLS once and keeps what an operator set', async () => {
    await seedDemoWorld(t.deps);
    const demo = (await listMlsRegistry(t.deps.db)).find((row) => row.mls === DEFAULT_SEED_MLS);
    expect(demo).toMatchObject({ name: 'Gable Demo MLS', logo_url: null });
    expect(demo!.disclaimer).toContain('{{currentYear}}');
    await run('mls', 'set', DEFAULT_SEED_MLS, '--name', 'Our MLS');
    await seedDemoWorld(t.deps);
    expect((await listMlsRegistry(t.deps.db)).find((row) => row.mls === DEFAULT_SEED_MLS)?.name).toBe('Our MLS');
  });
});
