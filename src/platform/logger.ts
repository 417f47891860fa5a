// The process's logger: JSON lines for log collectors, or readable lines on a terminal (LOG_FORMAT, which defaults
// to `pretty` when standard output is a terminal). Pretty lines are written in this thread, synchronously, like the
// JSON ones: no worker thread for a transport, and nothing of a crash's last lines is lost.
import pino from 'pino';
import pretty from 'pino-pretty';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';

export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>): FastifyBaseLogger {
  if (config.logFormat === 'json') return pino({ level: config.logLevel }) as FastifyBaseLogger;
  const stream = pretty({
    sync: true,
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  return pino({ level: config.logLevel }, stream) as FastifyBaseLogger;
}
