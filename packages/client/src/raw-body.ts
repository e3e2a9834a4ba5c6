/** What a request may send (fetch's BodyInit: a Blob, bytes, text, form data, a ReadableStream). */
export type Body = NonNullable<RequestInit['body']>;

/** The options that send `body` as it is (not as JSON) with openapi-fetch, to spread into a call. */
export type RawBodyOptions = {
  body: never;
  bodySerializer: (b: unknown) => Body;
  headers: Record<string, string>;
};

/**
 * Sends bytes instead of JSON: `pb.api.POST('/media/recordings', { params, ...rawBody(stream, 'audio/x-wav') })`.
 * A ReadableStream is streamed (fetch then needs `duplex: 'half'`, set here), never read whole.
 */
export function rawBody(body: Body, contentType: string, headers: Record<string, string> = {}): RawBodyOptions {
  const streamed = typeof ReadableStream !== 'undefined' && body instanceof ReadableStream;
  return {
    // why: openapi-fetch types `body` as the JSON schema of the route; bytes are sent as they are.
    body: body as never,
    bodySerializer: () => body,
    headers: { 'Content-Type': contentType, ...headers },
    ...(streamed ? { duplex: 'half' } : {}),
  };
}
