// Every environment variable a `gable` command reads, with its default and meaning: the one list the code reads
// from (config.ts and config-push.ts accept only these names) and docs/configuration.md's table is generated from
// (`npm run docs:config`; test/configuration-docs.unit.test.ts fails when the committed table differs).
// Defaults and meanings are Markdown, written for the operator reading the table.

export interface VariableDoc {
  /** The variables of one row (several when they are set together). */
  readonly names: readonly string[];
  /** The first cell when it is not the list of names (the per-app push pattern). */
  readonly label?: string;
  readonly default: string;
  readonly meaning: string;
}

export const VARIABLES = [
  {
    names: ['PORT'],
    default: '`3000`',
    meaning: 'HTTP port',
  },
  {
    names: ['HOST'],
    default: '`127.0.0.1`',
    meaning: 'interface to listen on (`0.0.0.0` for all)',
  },
  {
    names: ['BASE_URL'],
    default: '`http://HOST:PORT`',
    meaning: 'public address of the API (OAuth metadata, links)',
  },
  {
    names: ['WEB_URL'],
    default: '`BASE_URL`',
    meaning: 'public address of the partner authorization pages',
  },
  {
    names: ['DATA_DIR'],
    default: '`./data`',
    meaning: 'embedded database, generated key, `demo.json`',
  },
  {
    names: ['DATABASE_URL'],
    default: '–',
    meaning: 'PostgreSQL connection string; unset = embedded PGlite in `DATA_DIR`',
  },
  {
    names: ['DATABASE_POOL_SIZE'],
    default: '`20`',
    meaning:
      'connections each process keeps to PostgreSQL at most (its notice listener takes one more); size `max_connections` for every process (docs/deployment.md)',
  },
  {
    names: ['SECRET_KEY'],
    default: 'generated into `DATA_DIR/secret.key` in embedded mode',
    meaning:
      '32 bytes (64 hex characters); required with `DATABASE_URL`. Encryption and signing keys are derived from it',
  },
  {
    names: ['SECRET_KEY_PREVIOUS'],
    default: '–',
    meaning:
      'during a rotation of `SECRET_KEY`: the key it replaced (or a comma-separated list, newest first). Secrets and signed links made with it still read; nothing new is made with it; `gable secrets rotate` re-encrypts what is stored (docs/secret-rotation.md)',
  },
  {
    names: ['APP_NAME'],
    default: '`Gable`',
    meaning: 'TOTP issuer and page titles',
  },
  {
    names: ['LOG_LEVEL'],
    default: '`info`',
    meaning: '`fatal` … `trace`, `silent`',
  },
  {
    names: ['LOG_FORMAT'],
    default: '`pretty` on a terminal, `json` otherwise',
    meaning: '`pretty`: one readable line per entry; `json`: one JSON object per line, for log collectors',
  },
  {
    names: ['SLOW_QUERY_MS'],
    default: '`500` embedded, `2000` on PostgreSQL',
    meaning:
      'database statements this slow or slower are logged (with their route or job) and counted in `/metrics` (`gable_slow_statements_total`); `0` reports every statement (docs/architecture.md "Storage")',
  },
  {
    names: ['WORKERS_IN_PROCESS'],
    default: '`true`',
    meaning: 'run job workers inside `gable serve` (embedded mode always does)',
  },
  {
    names: ['SHUTDOWN_TIMEOUT_SECONDS'],
    default: '`10`',
    meaning:
      'on SIGTERM or SIGINT, how long `serve` finishes in-flight requests and a worker its running jobs; jobs still running then are released to another worker at once (docs/deployment.md)',
  },
  {
    names: ['SHUTDOWN_DELAY_SECONDS'],
    default: '`0`',
    meaning:
      'on SIGTERM or SIGINT, how long `serve` goes on accepting before it closes its listener, while `/ready` says 503 and every answer closes its connection: time for a balancer that polls `/ready` to stop sending (its interval × the failures it waits for)',
  },
  {
    names: ['TRUST_PROXY'],
    default: '`false`',
    meaning:
      'trust `X-Forwarded-*` from a reverse proxy: `true` (any hop: the leftmost address), a number of proxies in front (`1`: the address the nearest proxy saw), or the proxies’ addresses and CIDRs, comma-separated (docs/deployment.md)',
  },
  {
    names: ['PUBLIC_RATE_LIMIT', 'PUBLIC_RATE_WINDOW_SECONDS'],
    default: '`100`, `900`',
    meaning: 'requests per client IP per window on public (no-token) routes',
  },
  {
    names: ['CORS_ORIGINS'],
    default: '–',
    meaning: 'comma-separated browser origins allowed to call the API (https on every brand host name always is)',
  },
  {
    names: ['WEBHOOK_ALLOWED_NETWORKS'],
    default: '– (the embedded demo: loopback)',
    meaning:
      "comma-separated CIDRs the outbound SSRF guard lets through although loopback/private (e.g. `10.0.0.0/8` for a receiver on the private network); by default only public addresses are called. `gable serve` on the embedded database, listening on loopback, opens `127.0.0.0/8` and `::1/128` by itself when this is unset, so the walk-throughs' local receivers work; never with `DATABASE_URL` or another `HOST`",
  },
  {
    names: ['SMTP_URL'],
    default: '–',
    meaning:
      '`smtp://` or `smtps://` URL of the mail server (docs/mail.md); unset = each message is written as an `.eml` file under `DATA_DIR/mail`',
  },
  {
    names: ['MAIL_FROM'],
    default: "`APP_NAME <no-reply@BASE_URL's host>` (`gable.localhost` when that host is an IP address or `localhost`)",
    meaning: 'sender address of every email Gable sends',
  },
  {
    names: ['PUSH_APPS'],
    default: '–',
    meaning:
      'comma-separated app keys whose devices may register push tokens, besides `rechat` (docs/notifications.md)',
  },
  {
    names: ['STREAM_HEARTBEAT_SECONDS'],
    default: '`25`',
    meaning: 'seconds between heartbeats on `GET /notifications/stream`',
  },
  {
    names: ['S3_URL'],
    default: '–',
    meaning:
      'store files (rendered print files, previews) in an S3-compatible bucket: `s3://ACCESS_KEY_ID:SECRET@host:port/BUCKET?region=…&forcePathStyle=true` (docs/files.md); unset = `DATA_DIR/files`',
  },
  {
    names: [
      'MICROSOFT_CLIENT_ID',
      'MICROSOFT_CLIENT_SECRET',
      'MICROSOFT_TENANT',
      'MICROSOFT_LOGIN_URL',
      'MICROSOFT_GRAPH_URL',
    ],
    default: '–, –, `common`, `https://login.microsoftonline.com`, `https://graph.microsoft.com/v1.0`',
    meaning:
      "the Microsoft app for linking agents' mailboxes (docs/extmail.md); without a client id linking answers 412",
  },
  {
    names: ['EXTMAIL_SYNC_INTERVAL_MINUTES'],
    default: '`15`',
    meaning: 'minutes between the periodic syncs of each linked mailbox (docs/extmail.md)',
  },
  {
    names: ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'],
    default: 'generated into `DATA_DIR/vapid.json` in embedded mode',
    meaning:
      'Web Push (VAPID) key pair, base64url; without them on PostgreSQL, Web Push pushes are recorded as skipped (docs/notifications.md)',
  },
  {
    names: ['VAPID_SUBJECT'],
    default: '`mailto:push@<BASE_URL host>`',
    meaning: 'the `mailto:` or `https:` contact push services may use',
  },
  {
    names: ['FCM_CREDENTIALS'],
    default: '–',
    meaning: 'path of a Google service-account JSON file: enables FCM HTTP v1 pushes',
  },
  {
    names: ['FCM_URL', 'FCM_TOKEN_URL'],
    default: "`https://fcm.googleapis.com`, the file's `token_uri`",
    meaning: 'FCM API and OAuth token endpoint',
  },
  {
    names: ['APNS_KEY_FILE', 'APNS_KEY_ID', 'APNS_TEAM_ID', 'APNS_TOPIC'],
    default: '–',
    meaning:
      'APNs token authentication (`.p8` key, its id, team id, bundle id), all four together: enables APNs pushes',
  },
  {
    names: ['APNS_URL', 'APNS_CA_FILE'],
    default: '`https://api.push.apple.com`, –',
    meaning: 'APNs endpoint (sandbox: `https://api.sandbox.push.apple.com`); extra CA certificates to trust for it',
  },
  {
    names: [],
    label:
      '`<push variable>_<APP>` (e.g. `APNS_TOPIC_BROKERAGE_IOS`, `FCM_CREDENTIALS_BROKERAGE_IOS`, `VAPID_PUBLIC_KEY_BROKERAGE_IOS`)',
    default: 'the unsuffixed variable',
    meaning:
      'per-app push credentials for an app of `PUSH_APPS` (suffix: the key upper-cased, `-` and `.` as `_`); docs/notifications.md "Per-app credentials", ADR 0032',
  },
  {
    names: ['CHROMIUM_PATH'],
    default: 'the first installed of `/usr/bin/chromium`, `/usr/bin/chromium-browser`, `/usr/bin/google-chrome-stable`',
    meaning:
      'the browser that renders print campaigns and template previews (docs/print-campaigns.md); `none` turns rendering off; a path that is not an executable file is refused at start',
  },
  {
    names: ['RENDER_TIMEOUT_MS'],
    default: '`30000`',
    meaning: 'longest a render may take before it is abandoned (and retried once)',
  },
  {
    names: ['LISTING_URL'],
    default: 'Gable’s listing page, `WEB_URL/l/<id>?b=<signed brand>`',
    meaning:
      'the brokerage’s own listing page, linked from saved-search alert emails instead of Gable’s; `{id}`, `{mls}`, `{mls_number}` are replaced (docs/saved-searches.md, docs/public-pages.md)',
  },
  {
    names: ['ALERT_URL'],
    default: 'Gable’s alert results page, `WEB_URL/a/<token>`',
    meaning:
      'the brokerage’s own page for an alert email’s “See all” link; `{token}`, `{search}`, `{contact}`, `{brand}` are replaced (docs/public-pages.md)',
  },
  {
    names: ['ALERT_LINK_TTL_DAYS'],
    default: '`90`',
    meaning: 'days an alert email’s links to the results and preferences pages keep working (1–3650)',
  },
] as const satisfies readonly VariableDoc[];

/** A variable the configuration may read: anything else is a type error. */
export type VariableName = (typeof VARIABLES)[number]['names'][number];

/** docs/configuration.md's table of variables, as generated from VARIABLES. */
export function variablesTable(): string {
  const rows = VARIABLES.map((row: VariableDoc) => {
    const first = row.label ?? row.names.map((name) => `\`${name}\``).join(', ');
    return `| ${first} | ${row.default} | ${row.meaning} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

const TABLE_START = '<!-- variables: generated from src/config-variables.ts by `npm run docs:config` -->';
const TABLE_END = '<!-- /variables -->';

/** `markdown` (docs/configuration.md) with the table between its markers replaced by the generated one. */
export function withVariablesTable(markdown: string): string {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the table's markers are missing: ${TABLE_START} … ${TABLE_END}`);
  return `${markdown.slice(0, start + TABLE_START.length)}\n${variablesTable()}\n${markdown.slice(end)}`;
}
