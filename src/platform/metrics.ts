// Prometheus metrics, one registry per app instance (tests build many apps in one process).
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const EVENT_LOOP_SAMPLE_MS = 100;

export const PUSH_PROVIDERS = ['webpush', 'fcm', 'apns'] as const;
export const PUSH_OUTCOMES = ['sent', 'retried', 'dead_token', 'failed', 'skipped'] as const;

export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'gable_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly deprecatedCalls = new Counter({
    name: 'gable_deprecated_requests_total',
    help: 'Calls of deprecated endpoints, per route and OAuth client',
    labelNames: ['route', 'client'] as const,
    registers: [this.registry],
  });
  readonly authFailures = new Counter({
    name: 'gable_auth_failures_total',
    help: 'Failed authentication attempts by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  /** Push deliveries (decisions §16): every provider × outcome starts at 0, so dashboards see the family at once. */
  readonly pushes = new Counter({
    name: 'gable_pushes_total',
    help: 'Push notifications by provider (webpush, fcm, apns) and outcome (sent, retried, dead_token, failed, skipped)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });

  /** Saved-search alerts (docs/saved-searches.md "Metrics"). */
  readonly alertEventsMatched = new Counter({
    name: 'gable_alert_events_matched_total',
    help: 'Listing events matched against the saved searches',
    registers: [this.registry],
  });
  readonly alertMatches = new Counter({
    name: 'gable_alert_matches_total',
    help: 'Saved-search matches stored, by listing event type',
    labelNames: ['event_type'] as const,
    registers: [this.registry],
  });
  readonly alertNotifications = new Counter({
    name: 'gable_alert_notifications_total',
    help: 'In-app notifications of saved-search matches',
    registers: [this.registry],
  });
  readonly alertEmails = new Counter({
    name: 'gable_alert_emails_total',
    help: 'Saved-search alert emails queued, by frequency (Instant, Daily, Weekly, Monthly)',
    labelNames: ['frequency'] as const,
    registers: [this.registry],
  });
  readonly alertMatchingLag = new Histogram({
    name: 'gable_alert_matching_lag_seconds',
    help: 'From a listing event being recorded to its matches being stored',
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });

  /** Brand triggers (docs/triggers.md): contacts a sweep scheduled an email for, by event type. */
  readonly brandTriggerEmails = new Counter({
    name: 'gable_brand_trigger_emails_total',
    help: 'Contacts a brand-trigger sweep scheduled an email for, by event type (birthday, home_anniversary, wedding_anniversary)',
    labelNames: ['event_type'] as const,
    registers: [this.registry],
  });

  /** Statements over SLOW_QUERY_MS (db/slow-statements.ts), by the work they were part of. */
  readonly slowStatements = new Counter({
    name: 'gable_slow_statements_total',
    help: 'Database statements that took SLOW_QUERY_MS or longer, by kind of work (route, job, command) and its name',
    labelNames: ['kind', 'name'] as const,
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    // The event-loop lag histogram samples every 100 ms, not prom-client's 10 ms: a timer a hundred times a second
    // was a quarter of a second of CPU a minute in an idle server (issue 36), and lag worth an alert is longer.
    if (options.defaultMetrics ?? true)
      collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
    for (const provider of PUSH_PROVIDERS)
      for (const outcome of PUSH_OUTCOMES) this.pushes.inc({ provider, outcome }, 0);
    for (const frequency of ['Instant', 'Daily', 'Weekly', 'Monthly']) this.alertEmails.inc({ frequency }, 0);
  }
}
