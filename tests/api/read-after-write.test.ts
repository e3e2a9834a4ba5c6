/**
 * Read-after-write (decisions §41): right after a 200 to `PATCH /partners/{sid}` that changes
 * `max_containers`, the next container create obeys the new value, every time (20 rounds, lowering
 * and raising it in turn).
 */
import { API, adminAuth, http, newPartner } from '../harness/api';

test('each acknowledged max_containers change holds for the very next create', async () => {
  const p = await newPartner();
  // The default container holds one slot.
  let held = 1;
  const outcomes: string[] = [];
  for (let round = 0; round < 20; round++) {
    const lower = round % 2 === 0;
    const max = lower ? held : held + 1;
    const patched = await http()
      .patch(`${API}/partners/${p.partner_sid}`)
      .set(...adminAuth())
      .send({ attributes: { max_containers: max } });
    expect(patched.status).toBe(200);
    const created = await http()
      .post(`${API}/storage/containers`)
      .set(...p.auth)
      .send({});
    if (created.status === 200) held += 1;
    outcomes.push(`${max}:${created.status}`);
  }
  // Lowered to the number held: refused; raised by one: created.
  expect(outcomes).toEqual(
    Array.from(
      { length: 20 },
      (_, round) => `${round % 2 === 0 ? 1 + round / 2 : 2 + (round - 1) / 2}:${round % 2 === 0 ? 422 : 200}`,
    ),
  );
}, 60_000);
