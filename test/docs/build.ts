// The docs suite's global setup: build dist/ when src/ changed since the last build (the server it starts is the
// compiled code, as `npm start` runs it).
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.js', '--if-stale'], { stdio: 'inherit' });
}
