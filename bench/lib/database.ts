// A fresh PostgreSQL database for a bench run (dropped first if a previous run left it).
import pg from 'pg';

export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export async function recreateDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The kept database of an earlier `--keep` run when there is one (`reused`), otherwise a fresh one. */
export async function reuseOrCreateDatabase(
  serverUrl: string,
  name: string,
): Promise<{ url: string; reused: boolean }> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
  await client.end();
  if (!rowCount) return { url: await recreateDatabase(serverUrl, name), reused: false };
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), reused: true };
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
}
