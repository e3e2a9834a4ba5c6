/**
 * Every response the API suite receives through supertest is checked against the OpenAPI document
 * the instance serves (decisions §25: live responses validate against the document). A response that
 * does not match fails the request's `await` — and so the test — naming the route, the status and
 * what does not fit. Installed for the api-* jest projects (setupFilesAfterEnv).
 */
import { Test } from 'supertest';
import type { Response } from 'supertest';
import { instance } from './api';
import { ResponseChecker, type Exchange } from './response-checker';

let checker: ResponseChecker | undefined;
let checked = 0;

/** How many responses this test file has had checked (the hook is live when it grows). */
export function checkedResponses(): number {
  return checked;
}

/** The checker of this test file (for tests of the checker itself). */
export function responseChecker(): ResponseChecker {
  if (!checker) throw new Error('the OpenAPI document is not loaded yet');
  return checker;
}

function exchangeOf(req: { method: string; url: string }, res: Response): Exchange {
  const body: unknown = res.body;
  const text = typeof res.text === 'string' ? res.text : Buffer.isBuffer(body) ? body.toString('utf8') : null;
  return {
    method: req.method,
    url: req.url,
    status: res.status,
    contentType: String(res.headers['content-type'] ?? ''),
    text: text || null,
  };
}

/**
 * The document, asked for again when the connection fails: a keep-alive socket an earlier test file left in
 * this worker's pool may be closed by the server just as it is reused ("other side closed").
 */
async function fetchDocument(): Promise<globalThis.Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(`${instance().origin}/core/v2/openapi.json`);
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

beforeAll(async () => {
  const res = await fetchDocument();
  if (res.status !== 200) throw new Error(`the OpenAPI document did not load: ${res.status}`);
  checker = new ResponseChecker((await res.json()) as ConstructorParameters<typeof ResponseChecker>[0]);
});

type Assert = (
  this: Test & { method: string; url: string },
  resError: unknown,
  res: Response | undefined,
  fn: (err: unknown, res?: Response) => void,
) => void;
const proto = Test.prototype as unknown as { assert: Assert };
const original = proto.assert;
proto.assert = function (resError, res, fn) {
  if (res && checker) {
    checked += 1;
    const problem = checker.check(exchangeOf(this, res));
    if (problem) {
      fn.call(this, new Error(`response does not match the OpenAPI document: ${problem}`), res);
      return;
    }
  }
  original.call(this, resError, res, fn);
};
