import { fileId } from '../src/app';

/** The one route, matched without a router: what express's `/f/:id` matched, and nothing else. */
test.each([
  ['/f/abc', 'abc'],
  ['/f/abc/', 'abc'],
  ['/F/abc', 'abc'],
  ['/f/a%20b.wav', 'a b.wav'],
  ['/f/%E2%82%AC', '€'],
])('%s is the file %s', (path, id) => expect(fileId(path)).toBe(id));

test.each(['/f/', '/f', '/f//', '/f/a/b', '/fx/a', '/', '/health', '/metrics', '//f/a'])('%s is no file', (path) =>
  expect(fileId(path)).toBeUndefined(),
);

test('an id that is not percent-encoded UTF-8 is a URIError (a 400)', () => {
  expect(() => fileId('/f/%E2%82')).toThrow(URIError);
});
