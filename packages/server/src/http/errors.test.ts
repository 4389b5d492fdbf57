import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflict, registerErrorHandler } from './errors.ts';

const app = Fastify({ logger: false });
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
registerErrorHandler(app);
app.post('/parse-in-handler', async (request) => z.object({ phoneNumber: z.string({ error: 'phoneNumber is required' }) }).parse(request.body));
app.post('/echo', { schema: { body: z.object({ productId: z.string() }) } }, async (request) => request.body);
app.get('/known', async () => {
  throw conflict('This product is already in your wish list');
});
app.get('/crash', async () => {
  throw new Error('duplicate key value violates unique constraint "users_email_key" at select * from users');
});

app.get('/vanished', async () => {
  // How a query fails when the row it refers to was deleted meanwhile: the driver's error as the cause.
  const violation = Object.assign(new Error('insert or update on table "wishes" violates foreign key constraint "wishes_product_id_products_id_fk"'), { code: '23503' });
  throw new Error('Failed query: insert into "wishes" ("buyer_id", "product_id") values ($1, $2)', { cause: violation });
});

beforeAll(() => app.ready());
afterAll(() => app.close());

describe('the API error handler', () => {
  it('turns a ZodError thrown in a handler into 400 naming the field', async () => {
    const response = await app.inject({ method: 'POST', url: '/parse-in-handler', payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      message: 'phoneNumber is required',
      errors: [{ field: 'phoneNumber', message: 'phoneNumber is required' }],
    });
  });

  it('answers a malformed JSON body with 400 and a readable message', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"productId": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: "Body is not valid JSON but content-type is set to 'application/json'" });
  });

  it('keeps the status and message of a known error', async () => {
    const response = await app.inject({ method: 'GET', url: '/known' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ success: false, message: 'This product is already in your wish list' });
  });

  it('answers a reference to a row deleted meanwhile with 409, without the SQL', async () => {
    const response = await app.inject({ method: 'GET', url: '/vanished' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ success: false, message: 'Something this request refers to was just removed. Reload and try again.' });
  });

  it('answers anything else with a 500 that reveals no SQL or stack', async () => {
    const response = await app.inject({ method: 'GET', url: '/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ success: false, message: 'Something went wrong on our side. Please try again.' });
    expect(response.body).not.toMatch(/select|constraint|at /);
  });
});
