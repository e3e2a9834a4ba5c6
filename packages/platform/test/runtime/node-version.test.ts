import { nodeVersionProblem } from '../../src/runtime/node-version';

test('Node 24 and later run Patchbay', () => {
  expect(nodeVersionProblem('24.0.0')).toBeNull();
  expect(nodeVersionProblem('v24.21.0')).toBeNull();
  expect(nodeVersionProblem('26.1.0')).toBeNull();
});

test('an older Node is refused with the command that gets Node 24', () => {
  for (const old of ['20.20.2', 'v22.12.0', '18.19.1']) {
    const problem = nodeVersionProblem(old);
    expect(problem).toContain(`this is ${old}`);
    expect(problem).toContain('. scripts/use-node24.sh');
  }
});

test('this test process runs on a supported Node (CI runs the suite on Node 24)', () => {
  expect(nodeVersionProblem()).toBeNull();
});
