// compose.yaml cannot run where the tests run (no Docker, so no `docker compose config` either). These tests hold
// it to the Compose Specification's JSON Schema (vendored in test/fixtures/compose-spec) and to Gable: the
// variables it sets are ones Gable reads, the processes start in the order the migrations need, and its bucket
// job creates the bucket S3_URL names (run here against a loopback S3 server).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { VARIABLES } from '../src/config-variables.js';
import { startFakeS3, type FakeS3 } from './fakes/s3.js';

interface Service {
  image?: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { disable?: boolean; test?: string[] };
  volumes?: string[];
  profiles?: string[];
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const text = readFileSync('compose.yaml', 'utf8');
// Merge keys (`<<: *gable`) resolved, as Compose resolves them.
const compose = parse(text, { merge: true }) as ComposeFile;
const schema = JSON.parse(readFileSync('test/fixtures/compose-spec/compose-spec.json', 'utf8')) as object;
// A draft-07 schema (Ajv's default draft). It names its meta-schema by an https address Ajv does not hold, so it is
// not checked against that; strict: false, for the annotations (`deprecated`) Ajv's strict mode does not know.
const validate = new Ajv({ strict: false, validateSchema: false, allErrors: true }).compile(schema);
const gableServices = Object.entries(compose.services).filter(([, s]) => s.image === compose.services.serve!.image);

describe('compose.yaml', () => {
  it('is a valid Compose file (the Compose Specification schema)', () => {
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
  });

  it('would fail the schema check with a mistake in it', () => {
    const broken = structuredClone(compose);
    broken.services.worker!.depends_on = { serve: { condition: 'healthy' } };
    expect(validate(broken)).toBe(false);
  });

  it('runs serve, worker, the bucket job and the demo seed from the one Gable image', () => {
    expect(gableServices.map(([name]) => name).sort()).toEqual(['files-bucket', 'seed', 'serve', 'worker']);
    expect(compose.services.serve!.command).toEqual(['serve']);
    expect(compose.services.worker!.command).toEqual(['worker']);
  });

  it('sets only variables Gable reads, and the same database, key and stores for every Gable process', () => {
    const known = new Set<string>(VARIABLES.flatMap((row) => [...row.names]));
    for (const [, service] of gableServices) {
      expect(Object.keys(service.environment ?? {}).filter((name) => !known.has(name))).toEqual([]);
    }
    const shared = ['DATABASE_URL', 'SECRET_KEY', 'SMTP_URL', 'S3_URL', 'BASE_URL'];
    const pick = (s: Service) => shared.map((name) => s.environment?.[name]);
    for (const [, service] of gableServices) expect(pick(service)).toEqual(pick(compose.services.serve!));
  });

  it('requires SECRET_KEY from the environment or .env rather than shipping one', () => {
    expect(compose.services.serve!.environment!.SECRET_KEY).toMatch(/^\$\{SECRET_KEY:\?/);
  });

  it('lets serve migrate first: the worker and the seed wait for it to be healthy, it waits for its stores', () => {
    expect(compose.services.serve!.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      'files-bucket': { condition: 'service_completed_successfully' },
    });
    expect(compose.services.serve!.healthcheck?.test?.join(' ')).toContain('/health');
    expect(compose.services.postgres!.healthcheck?.test).toBeDefined();
    for (const name of ['worker', 'seed']) {
      expect(compose.services[name]!.depends_on).toEqual({ serve: { condition: 'service_healthy' } });
      expect(compose.services[name]!.healthcheck).toEqual({ disable: true });
    }
  });

  it('keeps the database and the files in declared named volumes', () => {
    const used = Object.values(compose.services).flatMap((s) => (s.volumes ?? []).map((v) => v.split(':')[0]!));
    expect(used.sort()).toEqual(['files-data', 'postgres-data']);
    expect(Object.keys(compose.volumes ?? {}).sort()).toEqual(['files-data', 'postgres-data']);
  });

  it('starts the demo seed only when asked (`docker compose run seed`), printing nothing but the JSON on stdout', () => {
    const seed = compose.services.seed!;
    expect(seed.profiles).toEqual(['demo']);
    const script = seed.command!.join(' ');
    for (const step of ['seed boundaries', 'seed templates', 'seed demo --json', 'seed listings --count 3000']) {
      expect(script).toContain(`gable ${step}`);
    }
    const steps = script.split('&&').map((step) => step.trim());
    expect(steps.filter((step) => step.startsWith('gable ') && !/>/.test(step))).toEqual([]);
    expect(steps.at(-1)).toBe('cat /data/demo.json');
  });

  describe('the bucket job', () => {
    let s3: FakeS3;
    const script = compose.services['files-bucket']!.command![0]!;
    beforeAll(async () => {
      s3 = await startFakeS3('some-other-bucket');
    });
    afterAll(() => s3.close());

    it('creates the bucket S3_URL names, and leaves it alone the second time', async () => {
      const bucket = new URL(compose.services.serve!.environment!.S3_URL!).pathname.slice(1);
      const s3Url = `http://S3RVER:S3RVER@${new URL(s3.endpoint).host}/${bucket}?region=us-east-1`;
      const run = () =>
        promisify(execFile)(process.execPath, ['-e', script], { env: { ...process.env, S3_URL: s3Url } });
      expect((await run()).stdout).toBe(`created the bucket ${bucket}\n`);
      expect((await run()).stdout).toBe(`the bucket ${bucket} is there\n`);
      const client = new S3Client({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      await expect(client.send(new HeadBucketCommand({ Bucket: bucket }))).resolves.toBeDefined();
      client.destroy();
    }, 20_000);
  });
});
