// The baseline every figure is compared with: bare Fastify + pg, one SELECT of a user by id.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const app = Fastify();
app.get('/health', async () => ({ status: 'ok' }));
app.get<{ Params: { id: string } }>('/users/:id', async (request) => {
  const { rows } = await pool.query('select * from users where id = $1', [request.params.id]);
  return { code: 'OK', data: rows[0] ?? null };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
