// Baseline for the getutctime benchmark: a bare Fastify route answering the same JSON shape.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get(
  '/time',
  {
    schema: {
      response: {
        200: {
          type: 'object',
          properties: { code: { type: 'integer' }, message: { type: 'string' }, utctime: { type: 'integer' } },
        },
      },
    },
  },
  async () => ({ code: 10000, message: '成功', utctime: Math.floor(Date.now() / 1000) }),
);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
