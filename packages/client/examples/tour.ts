/**
 * The README's client example: `PATCHBAY_TOKEN=<token> pnpm exec tsx packages/client/examples/tour.ts`
 * (PATCHBAY_URL defaults to http://127.0.0.1:8080/core/v2). Lists the partner's files page by
 * page, then shows what a refused call looks like.
 */
import { createPatchbayClient, data, PatchbayApiError } from '@patchbay/client';

const pb = createPatchbayClient({
  baseUrl: process.env.PATCHBAY_URL ?? 'http://127.0.0.1:8080/core/v2',
  credentials: { token: process.env.PATCHBAY_TOKEN },
});

async function main(): Promise<void> {
  const me = await data(pb.api.GET('/oauth/whoami'));
  console.log(`partner ${me.login} (${me.partner_sid})`);

  // Every file, following pagination.next (the same works for cursor lists with after/before).
  for await (const file of pb.paginate('/storage/files', { limit: 100, filter: "name like '%.wav'" })) {
    console.log(`${file.file_sid}  ${file.name}  ${file.file_bytes} bytes  ${file.publish_uri ?? '(not published)'}`);
  }

  try {
    await data(pb.api.GET('/countries', { params: { query: { limit: 5000 } } }));
  } catch (err) {
    if (!(err instanceof PatchbayApiError)) throw err;
    console.log(`refused: ${err.status} ${err.body.message}`, err.byField());
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
