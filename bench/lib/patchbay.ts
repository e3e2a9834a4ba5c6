import type { PatchbayInstance } from '../../tests/harness/patchbay';

/**
 * The bootstrap partner's default container, once storage has created it (polls; tolerates 503s while services start).
 */
export async function defaultContainer(inst: PatchbayInstance, timeoutMs = 60000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${inst.baseUrl}/storage/containers`, {
      headers: { authorization: `Bearer ${inst.token}` },
    }).catch(() => undefined);
    const body = res?.ok ? ((await res.json()) as { items?: Array<{ container_sid: string }> }) : undefined;
    const sid = body?.items?.[0]?.container_sid;
    if (sid) return sid;
    if (Date.now() > deadline) throw new Error('no default container');
    await new Promise((r) => setTimeout(r, 200));
  }
}
