import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { App } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { createBooking, createCategory, createProduct, createUser } from '../src/demo/factories.ts';
import { startSession } from '../src/users/refresh-tokens.ts';

/**
 * Hostile requests for every operation of the OpenAPI document, from every kind of caller, and
 * the rules every answer must keep: no 5xx, a 4xx says what is wrong, and a refused request
 * changes no table (rate-limit counters aside). Used by the suite (a fixed seed and a small
 * budget) and by `npm run fuzz` (long runs with a summary).
 */

/** One operation of the OpenAPI document, as the fuzzer calls it. */
export interface FuzzTarget {
  method: string;
  /** The path as documented, with `{name}` for path parameters. */
  path: string;
  pathParameters: string[];
  queryParameters: string[];
  /** The documented JSON body's properties; null when the operation takes no body. */
  bodyProperties: string[] | null;
}

/** Operations that answer a stream which stays open: they cannot be called and awaited. */
const STREAMING = new Set(['GET /api/events']);

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

export function fuzzTargets(document: { paths?: Record<string, Record<string, OpenApiOperation>> }): FuzzTarget[] {
  const targets: FuzzTarget[] = [];
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const upper = method.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(upper) || STREAMING.has(`${upper} ${path}`)) continue;
      const parameters = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const schema = content['application/json']?.schema ?? content['multipart/form-data']?.schema;
      targets.push({
        method: upper,
        path,
        pathParameters: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParameters: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        bodyProperties: operation.requestBody ? Object.keys(schema?.properties ?? {}) : null,
      });
    }
  }
  return targets;
}

export const callers = ['anonymous', 'buyer', 'seller', 'admin', 'forged'] as const;
export type Caller = (typeof callers)[number];

/** Rows the requests may point at, so that valid-looking requests reach past validation. */
export interface FuzzWorld {
  ids: string[];
  emails: string[];
  headers: Record<Caller, Record<string, string>>;
}

export async function createFuzzWorld(app: App): Promise<FuzzWorld> {
  const [buyer, seller, admin] = [
    await createUser(app.db, { role: 'buyer' }),
    await createUser(app.db, { role: 'seller' }),
    await createUser(app.db, { role: 'admin' }),
  ];
  const category = await createCategory(app.db);
  const product = await createProduct(app.db, { categoryId: category.id, sellerId: seller.id });
  const booking = await createBooking(app.db, product, buyer.id);
  const tokenOf = async (userId: string) =>
    `bearer ${await app.accessTokens.issue({ userId, sessionId: (await startSession(app.db, userId, undefined, { secondStep: true })).sessionId })}`;
  return {
    ids: [buyer.id, seller.id, admin.id, category.id, product.id, booking.id],
    emails: [buyer.email, seller.email, admin.email],
    headers: {
      anonymous: {},
      buyer: { authorization: await tokenOf(buyer.id) },
      seller: { authorization: await tokenOf(seller.id) },
      admin: { authorization: await tokenOf(admin.id) },
      forged: { authorization: 'bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' },
    },
  };
}

/**
 * Numbers as text, as a query, a path, a cursor or a header carries them: beyond 64 bits, beyond
 * a double, below its smallest step, negative, fractional, and in the other ways of writing one.
 */
const outOfRangeNumbers = [
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '99999999999999999999999',
  '2147483648',
  '-2147483649',
  '1e-99999',
  '1e99999',
  '-1e308',
  '1.7976931348623159e308',
  '-0',
  '0.5',
  '-12.75',
  '0x7fffffff',
  '1_000',
  ' 42 ',
  '+1',
  '00000000000000000000001',
] as const;

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u001b[31m',
    '0x10',
    '1e3',
    '5e-324',
    '-1',
    '0',
    '12.345',
    'NaN',
    'Infinity',
    'true',
    'null',
    '%00',
    "' or 1=1 --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '__proto__',
    '\uD800',
    'x'.repeat(3000),
  ),
  { weight: 2, arbitrary: fc.constantFrom(...outOfRangeNumbers) },
  fc.uuid(),
  fc.emailAddress(),
  fc.webUrl(),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  fc.integer(),
  fc.double(),
  fc.constantFrom(5e-324, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 63, -(2 ** 63), 2 ** 31, -(2 ** 31) - 1, 1e-300, 0.001, -0.5, 10_000_000.01),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileText, { maxKeys: 3 }),
);

/** A value for one field: sometimes one that fits (an existing id, e-mail or a plausible value), mostly hostile. */
const fieldValue = (world: FuzzWorld) =>
  fc.oneof(
    { weight: 3, arbitrary: hostileValue },
    fc.constantFrom(...world.ids),
    fc.constantFrom(...world.emails),
    fc.constantFrom('Secret123', 'Good', 'buyer', 'seller', 'https://images.example.com/a.webp', '01700000000', '120', 'Dhaka'),
  );

/** Headers the server reads, besides the caller's credentials; each request may carry hostile ones. */
const READ_HEADERS = ['last-event-id', 'if-none-match', 'accept-encoding', 'x-forwarded-for'] as const;

/** A value as a header carries it: printable ASCII (a client cannot send other bytes in a header). */
const asHeaderValue = (value: unknown): string => asQueryValue(value).replace(/[^\x20-\x7e]/g, '').trim();

/** A value as URL text; a lone surrogate, which no URL can carry, becomes U+FFFD as in a browser. */
const asQueryValue = (value: unknown): string => {
  const text = typeof value === 'string' ? value : value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
};

/** The documented path with each parameter filled, percent-encoded as a client would. */
function fillPath(path: string, values: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(asQueryValue(values[name])) || 'x');
}

export interface FuzzRequest {
  target: FuzzTarget;
  caller: Caller;
  options: InjectOptions & { url: string };
}

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json',
  'multipart/form-data',
  'multipart/form-data; boundary=fuzz',
  'text/plain',
  'application/x-www-form-urlencoded',
] as const;

/** A hostile request for one of these operations. */
export function hostileRequest(targets: FuzzTarget[], world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...targets).chain((target) => {
    const fieldNames = [...target.pathParameters, ...target.queryParameters];
    const fields = fc.record(Object.fromEntries(fieldNames.map((name) => [name, fieldValue(world)])), { requiredKeys: target.pathParameters });
    const body =
      target.bodyProperties === null
        ? fc.constant(undefined)
        : fc.oneof(
            { weight: 6, arbitrary: fc.record(Object.fromEntries(target.bodyProperties.map((name) => [name, fieldValue(world)])), { requiredKeys: [] }) },
            hostileValue,
            fc.constant('{"unterminated": '),
          );
    const headers = fc.record(Object.fromEntries(READ_HEADERS.map((name) => [name, hostileValue])), { requiredKeys: [] });
    return fc.record({ caller: fc.constantFrom(...callers), fields, body, contentType: fc.constantFrom(...CONTENT_TYPES), headers }).map(
      ({ caller, fields: values, body: payload, contentType, headers: extraHeaders }) => {
        const query = Object.fromEntries(
          target.queryParameters.filter((name) => name in values).map((name) => [name, asQueryValue(values[name])]),
        );
        const options: FuzzRequest['options'] = {
          method: target.method as InjectOptions['method'],
          url: fillPath(target.path, values),
          query,
          headers: {
            ...Object.fromEntries(Object.entries(extraHeaders).map(([name, value]) => [name, asHeaderValue(value)])),
            ...world.headers[caller],
          },
        };
        if (payload !== undefined && target.method !== 'GET') {
          options.headers = { ...options.headers, 'content-type': contentType };
          options.payload = typeof payload === 'string' ? payload : JSON.stringify(payload);
        }
        return { target, caller, options };
      },
    );
  });
}

/**
 * Columns the job workers write in the background after a request that succeeded: a notification's
 * e-mail is marked sent when the e-mail job runs, which may be during a later request.
 */
const columnsWrittenInTheBackground: Record<string, string[]> = { notifications: ['emailed_at'] };

/**
 * A fingerprint of every table's content but the rate-limit counters' and the product view counts'
 * (which each app server writes in the background every two seconds), the secrets (each made once,
 * on first use, by whichever request or job needs it first), the account links (a reset link is
 * made by a job after "forgot password" answers), the places (the towns loaded with the database, which
no request writes, and which are too many to read after every request) and the columns above: equal
 * before and after a request means it changed nothing. Answers the function that takes it.
 */
export async function tableFingerprinter(db: Database): Promise<() => Promise<string>> {
  const tables = await db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('login_throttle', 'product_views', 'app_secrets', 'account_tokens', 'places', '__drizzle_migrations')
        order by table_name`,
  );
  const query = sql.raw(
    tables.rows
      .map(({ name }) => {
        const row = name in columnsWrittenInTheBackground ? `(to_jsonb(t) - array[${columnsWrittenInTheBackground[name]!.map((column) => `'${column}'`).join(', ')}])::text` : 't::text';
        return `select '${name}' as name, md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as hash from public."${name}" t`;
      })
      .join(' union all '),
  );
  return async () => (await db.execute<{ name: string; hash: string }>(query)).rows.map((row) => `${row.name}:${row.hash}`).join(',');
}

/** What is wrong with an answer, or null when it keeps the rules. */
export function violation(response: LightMyRequestResponse, tablesChanged: string[]): string | null {
  if (response.statusCode >= 500) return `answered ${response.statusCode}: ${response.body.slice(0, 300)}`;
  if (response.statusCode >= 400) {
    // Pages for people (the sign-in popup's result) say what went wrong in HTML.
    if (String(response.headers['content-type']).startsWith('text/html')) {
      return response.body.trim() === '' ? `answered ${response.statusCode} with an empty page` : null;
    }
    let message: unknown;
    try {
      message = (response.json() as { message?: unknown }).message;
    } catch {
      return `answered ${response.statusCode} without a JSON body`;
    }
    if (typeof message !== 'string' || message.trim() === '') return `answered ${response.statusCode} without a message`;
    if (tablesChanged.length > 0) return `answered ${response.statusCode} but changed ${tablesChanged.join(', ')}`;
  }
  return null;
}

/** Sends one request and checks the answer; keeps the fingerprint of the tables up to date. */
export async function createFuzzChecker(app: App) {
  const tableFingerprint = await tableFingerprinter(app.db);
  let fingerprint: string | undefined;
  return async (request: FuzzRequest): Promise<{ status: number; problem: string | null }> => {
    fingerprint ??= await tableFingerprint();
    const response = await app.inject(request.options);
    let changed: string[] = [];
    if (response.statusCode >= 400 && response.statusCode < 500) {
      const after = await tableFingerprint();
      const before = new Set(fingerprint.split(','));
      changed = after.split(',').filter((table) => !before.has(table)).map((table) => table.split(':')[0]!);
      fingerprint = after;
    } else {
      fingerprint = undefined;
    }
    return { status: response.statusCode, problem: violation(response, changed) };
  };
}

export const describeRequest = ({ caller, options }: FuzzRequest) =>
  `${caller} ${options.method} ${options.url} query=${JSON.stringify(options.query)} headers=${JSON.stringify(options.headers)} body=${String(options.payload).slice(0, 300)}`;
