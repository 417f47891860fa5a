// The start-up baseline (bench/startup.bench.ts): bare Fastify listening with one /health route, plain JavaScript
// run by Node as `gable serve` runs its compiled code (no TypeScript loader), so the figure is the least a Fastify
// server takes from `node` to its first answer on this machine.
import Fastify from 'fastify';

const app = Fastify();
app.get('/health', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
